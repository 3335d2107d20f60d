// Counts forever, one tick per 50 ms: a Node process to attach to.
let count = 0;

function tick(n) {
    const next = n + 1; // marker: tick
    return next;
}

console.log("ticking");
setInterval(() => {
    count = tick(count);
    if (count % 20 === 0) {
        console.log(`tick ${count}`);
    }
}, 50);
