// Needs the 2021 edition's prelude (TryFrom).
fn main() {
    let small = u8::try_from(300i32).unwrap_or(255); // marker: convert
    println!("clamped to {small}");
}
