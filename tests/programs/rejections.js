// Errors no code catches, for the Node profile's default exception stop: `node rejections.js async` throws in
// an async function two awaits deep, `node rejections.js reject` rejects a promise nobody handles.

async function load(id) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (id > 2) {
        throw new Error(`no record ${id}`); // marker: async throw
    }
    return { id };
}

async function report(ids) {
    const found = [];
    for (const id of ids) {
        found.push(await load(id)); // marker: awaited
    }
    return found;
}

function fetchLater(name) {
    return new Promise((resolve, reject) => {
        setTimeout(() => reject(new TypeError(`cannot fetch ${name}`)), 5); // marker: reject
    });
}

if (process.argv[2] === "reject") {
    fetchLater("users");
} else {
    report([1, 2, 3]);
}
setTimeout(() => console.log("still running"), 300);
