"""Score games at contest scale: row games (take from the ends of a row of values), their
bottom-up kernel with O(n) memory, and the crate-line contest's input and output format."""
