"""The program's output: the buffer it arrives in, and the marks that tell where its end is."""
