use shelf::Shelf;

fn main() {
    let mut shelf = Shelf { counts: vec![0, 2] };
    shelf.restock(1, 2);
    println!("slot 1 holds {}", shelf.count_at(1)); // marker: print
}
