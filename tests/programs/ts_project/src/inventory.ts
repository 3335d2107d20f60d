// A stock list with TypeScript's own syntax: an interface, an enum, a class with parameter properties.
// Built by tsc (tests/e2e/test_node_typescript.py) and run as dist/app.js, or run by tsx as it is.

export interface Item {
    sku: string;
    count: number;
}

export enum Level {
    Empty = "empty",
    Low = "low",
    Plenty = "plenty",
}

export class Inventory {
    private readonly items: Item[] = [];

    constructor(public readonly owner: string, private readonly low: number) {}

    add(sku: string, count: number): number {
        const item: Item = { sku, count };
        this.items.push(item); // marker: add
        return this.items.length;
    }

    level(sku: string): Level {
        const found = this.items.find((item) => item.sku === sku);
        if (!found || found.count === 0) {
            return Level.Empty;
        }
        return found.count < this.low ? Level.Low : Level.Plenty; // marker: level
    }
}
