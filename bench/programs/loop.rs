// Debuggee for bench/languages.py: a long loop, so `step over` can repeat hundreds of times.

fn work(n: i64) -> i64 {
    let mut total: i64 = 0; // the benchmark's breakpoint
    let mut count: i64 = 0;
    let mut last: i64 = 0;
    for i in 0..n {
        total += i;
        count += 1;
        last = i * 2;
    }
    total + count + last
}

fn main() {
    println!("{}", work(1_000_000));
}
