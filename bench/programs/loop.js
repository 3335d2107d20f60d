// Debuggee for bench/node_step.py: a long loop, so `step over` can repeat hundreds of times.

function work(n) {
    let total = 0; // the benchmark's breakpoint
    let count = 0;
    let last = null;
    for (let i = 0; i < n; i++) {
        total += i;
        count += 1;
        last = i * 2;
    }
    return [total, count, last];
}

console.log(work(1e6));
