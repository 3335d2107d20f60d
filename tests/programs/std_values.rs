//! Values of the standard library's types as a program holds them, for what a debugger shows of each: numbers and
//! characters, text, references, smart pointers, cells, locks, collections and trait objects.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

struct Sku {
    code: String,
    shelf: u8,
}

struct Tally {
    count: u32,
    label: String,
}

struct Store {
    shared: Rc<Vec<u32>>,
    names: Arc<[&'static str]>,
    lock: Arc<Mutex<Tally>>,
}

impl fmt::Display for Sku {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} on shelf {}", self.code, self.shelf)
    }
}

fn main() {
    let byte: u8 = 200;
    let offset: i8 = -5;
    let letter = 'ß';
    let bytes = [1u8, 2, 3, 4];
    let letters = ['a', 'é'];
    let raw: Vec<u8> = vec![104, 105, 0, 255];
    let said = String::from("say \"hi\"\n\ttab\\");
    let tags = ["v1.2.0", "v1.4.1"];
    let first = &tags[0];
    let counts = vec![3, 1, 2];
    let counts_ref = &counts;
    let maybe = Some(7u32);
    let maybe_ref = &maybe;
    let found = counts.iter().find(|count| **count == 1);
    let boxed_text: Box<str> = "boxed".into();
    let boxed_slice: Box<[u16]> = vec![4, 5].into_boxed_slice();
    let shared_text: Rc<str> = Rc::from("pattern");
    let shared_slice: Arc<[i32]> = Arc::from(vec![7, 8, 9]);
    let shared = Rc::new(String::from("shared"));
    let also_shared = Rc::clone(&shared);
    let cell = Cell::new(3u32);
    let cells = RefCell::new(vec![9, 8]);
    let reading = cells.borrow();
    let guarded = Mutex::new(77);
    let held = guarded.lock().unwrap();
    let mut ordered = BTreeMap::new();
    for key in 0..30u32 {
        ordered.insert(key, key * key);
    }
    let names: BTreeSet<&str> = ["b", "a"].into_iter().collect();
    let mut queue = VecDeque::with_capacity(4);
    queue.push_back(1);
    queue.push_back(2);
    queue.push_front(0); // wraps around the end of its buffer
    let done: Result<(), String> = Ok(());
    let sku: Box<dyn fmt::Display> = Box::new(Sku { code: "A-1".into(), shelf: 3 });
    let shared_sku: Arc<dyn fmt::Display> = Arc::new(Sku { code: "B-2".into(), shelf: 4 });
    let by_name: HashMap<&str, u8> = [("one", 1)].into_iter().collect();
    let store = Store {
        shared: Rc::new(vec![1, 2, 3]),
        names: Arc::from(vec!["a", "b"]),
        lock: Arc::new(Mutex::new(Tally { count: 4, label: "t".into() })),
    };
    let counter = Rc::new(RefCell::new(Tally { count: 5, label: "r".into() }));
    let pair: (u8, Result<u32, String>) = (1, Ok(12));
    let tally = store.lock.lock().unwrap();
    println!("{byte} {offset} {letter} {bytes:?} {letters:?} {raw:?} {said} {first} {counts_ref:?} {maybe_ref:?} {found:?}"); // marker: shown
    println!("{boxed_text} {boxed_slice:?} {shared_text} {shared_slice:?} {also_shared} {cell:?} {reading:?} {held}");
    println!("{ordered:?} {names:?} {queue:?} {done:?} {sku} {shared_sku} {by_name:?}");
    println!("{:?} {:?} {} {} {pair:?} {}", store.shared, store.names, tally.count, counter.borrow().count, tally.label);
}
