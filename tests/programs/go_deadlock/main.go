// A job queue that deadlocks: the workers wait for a mutex the dispatcher holds while it waits on a
// channel nobody will write to, and main waits for the workers. Go's runtime then says
// "all goroutines are asleep - deadlock!".
package main

import (
	"fmt"
	"sync"
)

type queue struct {
	mu      sync.Mutex
	pending []string
	done    chan string
}

func (q *queue) worker(id int, wg *sync.WaitGroup) {
	defer wg.Done()
	q.mu.Lock() // marker: worker waits
	defer q.mu.Unlock()
	q.pending = q.pending[1:]
	fmt.Println("worker", id, "took a job")
}

func (q *queue) dispatch(ready chan<- struct{}) {
	q.mu.Lock()
	ready <- struct{}{}
	result := <-q.done // marker: dispatcher waits
	q.mu.Unlock()
	fmt.Println("dispatched", result)
}

func main() {
	q := &queue{pending: []string{"a", "b", "c"}, done: make(chan string)}
	ready := make(chan struct{})
	go q.dispatch(ready)
	<-ready
	fmt.Print("jobs queued: ", len(q.pending), "\n")
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Add(1)
		go q.worker(i, &wg)
	}
	wg.Wait() // marker: main waits
	fmt.Println("all done")
}
