// An ES module with variables at its top level, for the Node tests (issue 35 point 7: at a stop there they are
// listed, not hidden in a `Module` scope js-debug marks expensive).
import { basename } from "node:path";

const shelf = ["bolt", "nut", "gear"];
let counted = 0;

function count(items) {
    counted += items.length; // marker: count
    return counted;
}

const total = count(shelf);
const name = basename(import.meta.filename ?? "shelf.mjs"); // marker: top
console.log(name, total, counted);
