/*
 * Executes the marker instruction `xchg %bx,%bx` once, which the insn_split plugin logs with the
 * guest's instruction counts so far (softroce/insn-count/insn_split.c). A no-op on real hardware.
 */
int main(void)
{
    __asm__ volatile("xchg %%bx, %%bx" ::: "memory");
    return 0;
}
