// A vector's element written in place: what changed is the element.
fn main() {
    let mut v = vec![1, 2, 3];
    v[1] = 20; // marker: element
    println!("{:?}", v); // marker: print
}
