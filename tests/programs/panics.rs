// Stock checks that panic four ways, chosen by the first argument: index, overflow, explicit, unwrap.
use std::env;

struct Shelf {
    counts: Vec<u8>,
}

impl Shelf {
    fn count_at(&self, slot: usize) -> u8 {
        self.counts[slot] // marker: index
    }

    fn restock(&mut self, slot: usize, extra: u8) -> u8 {
        self.counts[slot] += extra; // marker: overflow
        self.counts[slot]
    }
}

fn check(shelf: &Shelf, limit: u8) {
    for (slot, count) in shelf.counts.iter().enumerate() {
        if *count > limit {
            panic!("slot {} holds {} items, over the limit of {}", slot, count, limit); // marker: explicit
        }
    }
}

fn parse_slot(text: &str) -> usize {
    let slot: usize = text.parse().map_err(|e| format!("slot {:?}: {}", text, e)).unwrap(); // marker: unwrap
    slot
}

fn main() {
    let how = env::args().nth(1).unwrap_or_default();
    let mut shelf = Shelf { counts: vec![3, 250, 7] };
    match how.as_str() {
        "index" => println!("{}", shelf.count_at(5)),
        "overflow" => println!("{}", shelf.restock(1, 10)),
        "explicit" => check(&shelf, 100),
        "unwrap" => println!("{}", parse_slot("two")),
        _ => println!("fine: {}", shelf.count_at(0)),
    }
}
