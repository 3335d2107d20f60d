// Command issue prints two tickets' IDs and their seats.
package main

import (
	"fmt"

	"example.com/tickets"
)

func main() {
	all := []tickets.Ticket{tickets.Issue("ada", 2), tickets.Issue("grace", 3)}
	first := all[0] // marker: first
	fmt.Println(first.ID, first.Owner.Valid, tickets.Seats(all))
}
