// A small ledger in plain Node.js: a loop with locals, a function call, an object, console output, and an
// error thrown on request (`node ledger.js throw`), for the Node profile's tests.

function fee(amount, rate) {
    const charged = Math.round(amount * rate * 100) / 100; // marker: fee
    return charged;
}

function post(account, entry) {
    const before = account.balance;
    account.balance = before + entry.amount - fee(entry.amount, account.rate); // marker: post
    account.history.push(entry.memo);
    return account.balance - before;
}

function main(mode) {
    const account = { owner: "Ada", balance: 100, rate: 0.01, history: [] };
    const entries = [
        { memo: "salary", amount: 250 },
        { memo: "rent", amount: -120 },
        { memo: "coffee", amount: -4.5 },
    ];
    let total = 0; // marker: top
    for (let i = 0; i < entries.length; i++) {
        const change = post(account, entries[i]); // marker: loop
        total += change;
        console.log(`posted ${entries[i].memo}: ${change.toFixed(2)}`);
    }
    if (mode === "throw") {
        throw new RangeError(`balance ${account.balance} out of range`); // marker: throw
    }
    console.log(`balance ${account.balance.toFixed(2)} after ${account.history.length} entries`);
    return total;
}

main(process.argv[2]);
