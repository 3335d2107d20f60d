package tickets

import "testing"

func TestIssueIsRepeatable(t *testing.T) {
	if Issue("ada", 2).ID != Issue("ada", 3).ID {
		t.Fatal("the same owner got two IDs")
	}
}

func TestSeats(t *testing.T) {
	all := []Ticket{Issue("ada", 2), Issue("grace", 3)}
	if got := Seats(all); got != 5 {
		t.Errorf("Seats = %d, want 5", got) // marker: errorf
	}
}
