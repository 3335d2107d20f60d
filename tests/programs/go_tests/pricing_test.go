package pricing

import "testing"

func TestSmallBasket(t *testing.T) {
	if got := Total([]Line{{"pen", 150, 2}}); got != 300 {
		t.Fatalf("Total = %d, want 300", got)
	}
}

func TestBulkDiscount(t *testing.T) {
	lines := []Line{{"pen", 150, 2}, {"paper", 400, 10}}
	got := Total(lines)
	want := 300 + 3600
	if got != want {
		t.Errorf("Total = %d, want %d", got, want) // marker: errorf
	}
}

func TestSubtests(t *testing.T) {
	for _, quantity := range []int{1, 20} {
		quantity := quantity
		t.Run("quantity", func(t *testing.T) {
			got := Total([]Line{{"ink", 100, quantity}})
			if got > 100*quantity {
				t.Fatal("charged more than the list price") // never: just a passing subtest
			}
		})
	}
}

func TestUnknownItem(t *testing.T) {
	catalogue := []int{150, 400}
	if Price(catalogue, 2) != 0 { // marker: unknown item
		t.Error("an unknown item has a price")
	}
}

func TestDiscountTable(t *testing.T) {
	cases := []struct {
		name string
		line Line
		want int
	}{{"single", Line{"pen", 150, 1}, 150}, {"bulk", Line{"pen", 100, 10}, 900}}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			if got := Total([]Line{c.line}); got != c.want {
				t.Fatalf("%s: Total = %d, want %d", c.name, got, c.want) // marker: fatalf
			}
		})
	}
}
