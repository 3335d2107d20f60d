package units

import "testing"

func TestFoot(t *testing.T) {
	foot := Length{Millimetres: 304, Label: "foot"}
	if got := foot.Inches(); got != 12 {
		t.Errorf("Inches = %d, want 12", got) // marker: errorf
	}
}
