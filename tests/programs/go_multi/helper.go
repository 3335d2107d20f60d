package main

func helper(n int) int {
	return n + 1 // marker: helper
}
