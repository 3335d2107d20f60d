// A breakpoint on a println! line: lldb binds it at three places of main, one run of the line reaching all three.
fn main() {
    let names = vec!["ada", "bob"];
    for (i, name) in names.iter().enumerate() {
        println!("{} {}", i, name); // marker: print
        let shown = i + 1; // marker: after
        assert!(shown > i);
    }
}
