import { Inventory, Level } from "./inventory.js";

type Report = Record<string, Level>;

function report(stock: Inventory, skus: string[]): Report {
    const out: Report = {};
    for (const sku of skus) {
        out[sku] = stock.level(sku);
    }
    return out;
}

const stock = new Inventory("Ada", 5); // marker: entry
stock.add("bolt", 12);
stock.add("nut", 3);
setTimeout(() => {
    const later = report(stock, ["bolt", "nut", "gear"]); // marker: later
    console.log(JSON.stringify(later));
}, 10);
