package main

import "fmt"

func main() {
	fmt.Println(helper(20)) // marker: call
}
