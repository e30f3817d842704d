// Rebuild when the built-in scripts change (they are embedded in the binary).
fn main() {
    println!("cargo:rerun-if-changed=../scripts");
}
