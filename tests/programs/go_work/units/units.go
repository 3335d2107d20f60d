// Package units converts lengths; a module of its own in the workspace.
package units

type Length struct {
	Millimetres int
	Label       string
}

// Inches of a length; the bug: rounded down, not to the nearest inch.
func (l Length) Inches() int {
	inches := l.Millimetres * 10 / 254 // marker: inches
	return inches
}
