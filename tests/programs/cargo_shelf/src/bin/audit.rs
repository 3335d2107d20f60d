use shelf::Shelf;

fn main() {
    let shelf = Shelf { counts: vec![3, 0, 7] };
    let empty = shelf.counts.iter().filter(|c| **c == 0).count();
    println!("{} empty slots", empty); // marker: audit
}
