// A ledger parser shaped like real code: Results, Options and enums from `parse().map_err(...)`, a big index.
use std::collections::HashMap;

#[derive(Debug)]
enum Entry {
    Deposit { account: String, cents: u64 },
    Withdrawal(String, u64),
    Comment,
}

fn parse_cents(text: &str) -> Result<u64, String> {
    text.trim().parse::<u64>().map_err(|e| format!("bad amount {:?}: {}", text, e))
}

fn parse_line(line: &str) -> Option<Result<Entry, String>> {
    let mut parts = line.split_whitespace();
    let entry = match parts.next()? {
        "+" => Entry::Deposit { account: parts.next()?.to_string(), cents: match parse_cents(parts.next()?) {
            Ok(cents) => cents,
            Err(e) => return Some(Err(e)),
        } },
        "-" => Entry::Withdrawal(parts.next()?.to_string(), parse_cents(parts.next()?).ok()?),
        _ => Entry::Comment,
    };
    Some(Ok(entry))
}

fn main() {
    let count: Result<u32, String> = Ok(12);
    let missing: Result<u32, String> = Err("no count".to_string());
    let cents = parse_cents("1250");
    let refused = parse_cents("12x");
    let first = parse_line("+ alice 1250");
    let second = parse_line("- bob 300");
    let note = parse_line("# closing");
    let nothing: Option<u64> = None;
    println!("{:?} {:?} {:?} {:?}", count, missing, cents, refused); // marker: parsed
    println!("{:?} {:?} {:?} {:?}", first, second, note, nothing);
    let mut index: HashMap<u64, u64> = HashMap::new();
    for key in 0..(1u64 << 20) {
        index.insert(key, key * 2);
    }
    let mut history: Vec<u64> = index.values().copied().collect();
    history.sort();
    let total: u64 = history.iter().sum();
    println!("{} entries, total {}, last {:?}", index.len(), total, history.last()); // marker: indexed
}
