/* Exported dlsym: consult cudaleak_dlsym_substitute(handle, symbol); when it
 * returns 1, the symbol exists only as our own export (a library that is not
 * loaded): return NULL as dlsym would without us. When it returns NULL, jump (not call) to the real dlsym so that its caller-relative
 * lookups (RTLD_NEXT) see the original caller, and another interposer's
 * dlsym(RTLD_NEXT, "dlsym") chain cannot recurse through us. x86-64 SysV. */
    .text
    .globl  dlsym
    .type   dlsym, @function
dlsym:
    .cfi_startproc
    push    %rdi
    .cfi_adjust_cfa_offset 8
    push    %rsi
    .cfi_adjust_cfa_offset 8
    sub     $8, %rsp                  /* keep the stack 16-byte aligned at the call */
    .cfi_adjust_cfa_offset 8
    call    cudaleak_dlsym_substitute
    add     $8, %rsp
    .cfi_adjust_cfa_offset -8
    pop     %rsi
    .cfi_adjust_cfa_offset -8
    pop     %rdi
    .cfi_adjust_cfa_offset -8
    test    %rax, %rax
    jz      1f
    cmp     $1, %rax
    jne     2f
    xor     %eax, %eax
2:
    ret
1:
    jmp     *cudaleak_real_dlsym_ptr(%rip)
    .cfi_endproc
    .size   dlsym, .-dlsym
    .section .note.GNU-stack,"",@progbits
