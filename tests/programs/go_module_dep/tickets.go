// Package tickets issues tickets named by UUIDs from a module of the proxy (github.com/google/uuid).
package tickets

import "github.com/google/uuid"

type Ticket struct {
	ID    uuid.UUID
	Owner uuid.NullUUID
	Seats int
}

// Issue a ticket for seats seats, owned by owner; the namespace makes the IDs repeatable.
func Issue(owner string, seats int) Ticket {
	ticket := Ticket{ID: uuid.NewSHA1(uuid.NameSpaceURL, []byte(owner)), Seats: seats}
	if owner != "" {
		ticket.Owner = uuid.NullUUID{UUID: uuid.NewMD5(uuid.NameSpaceDNS, []byte(owner)), Valid: true}
	}
	return ticket // marker: issued
}

// Seats of all tickets; the bug: the first ticket is left out.
func Seats(all []Ticket) int {
	total := 0
	for i := 1; i < len(all); i++ {
		total += all[i].Seats // marker: seats
	}
	return total
}
