use std::collections::{HashMap, HashSet};

fn main() {
    let name = String::from("pear");
    let items = vec![3, 1, 4];
    let mut stock: HashMap<String, i32> = HashMap::new();
    stock.insert("apple".to_string(), 2);
    let mut seen: HashSet<&str> = HashSet::new();
    seen.insert("kiwi");
    let label: &str = "fruit";
    let doubled: i32 = items.iter().map(|x| {
        x * 2 // marker: closure
    }).sum();
    println!("{} {:?} {:?} {} {} {:?}", name, items, stock, label, doubled, seen); // marker: print
}
