// The ledger in TypeScript (types, an interface, a class), run by Node 22 with --experimental-strip-types:
// only erasable syntax (no enums, no parameter properties), so the lines the debugger sees are the file's own.

interface Entry {
    memo: string;
    amount: number;
}

class Account {
    owner: string;
    balance: number;
    readonly history: string[] = [];

    constructor(owner: string, balance: number) {
        this.owner = owner;
        this.balance = balance;
    }

    post(entry: Entry): number {
        const before: number = this.balance;
        this.balance = before + entry.amount; // marker: post
        this.history.push(entry.memo);
        return this.balance - before;
    }
}

function main(mode?: string): number {
    const account = new Account("Ada", 100);
    const entries: Entry[] = [
        { memo: "salary", amount: 250 },
        { memo: "rent", amount: -120 },
    ];
    let total: number = 0; // marker: top
    for (const entry of entries) {
        const change: number = account.post(entry); // marker: loop
        total += change;
        console.log(`posted ${entry.memo}: ${change}`);
    }
    if (mode === "throw") {
        throw new RangeError(`balance ${account.balance} out of range`); // marker: throw
    }
    console.log(`balance ${account.balance} after ${account.history.length} entries`);
    return total;
}

main(process.argv[2]);
