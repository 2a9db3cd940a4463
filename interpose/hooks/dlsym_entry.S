/* Exported dlsym and dlvsym: each asks its substitute function,
 * cudaleak_dlsym_substitute(handle, symbol) or
 * cudaleak_dlvsym_substitute(handle, symbol, version), what to return. A
 * function pointer is returned as is; 1 means the symbol exists only as our
 * own export (a library that is not loaded): return NULL as the C library
 * would without us. NULL means pass through: jump (not call) to the C
 * library's function, so that its caller-relative lookups (RTLD_NEXT) see the
 * original caller, and another interposer's dlsym(RTLD_NEXT, "dlsym") chain
 * cannot recurse through us. The hidden cudaleak_*_entry aliases let the
 * library hand out these entries itself. x86-64 SysV. */
/* The substitute's answer in %rax: return it, return NULL for 1, or
 * tail-jump to the C library's function when it is NULL. */
.macro answer_or_jump real
    test    %rax, %rax
    jz      1f
    cmp     $1, %rax
    jne     2f
    xor     %eax, %eax
2:
    ret
1:
    jmp     *\real(%rip)
.endm

    .text
    .globl  dlsym
    .type   dlsym, @function
    .globl  cudaleak_dlsym_entry
    .hidden cudaleak_dlsym_entry
    .type   cudaleak_dlsym_entry, @function
dlsym:
cudaleak_dlsym_entry:
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
    answer_or_jump cudaleak_real_dlsym_ptr
    .cfi_endproc
    .size   dlsym, .-dlsym
    .size   cudaleak_dlsym_entry, .-cudaleak_dlsym_entry

    .globl  dlvsym
    .type   dlvsym, @function
    .globl  cudaleak_dlvsym_entry
    .hidden cudaleak_dlvsym_entry
    .type   cudaleak_dlvsym_entry, @function
dlvsym:
cudaleak_dlvsym_entry:
    .cfi_startproc
    push    %rdi                      /* three pushes: aligned at the call */
    .cfi_adjust_cfa_offset 8
    push    %rsi
    .cfi_adjust_cfa_offset 8
    push    %rdx
    .cfi_adjust_cfa_offset 8
    call    cudaleak_dlvsym_substitute
    pop     %rdx
    .cfi_adjust_cfa_offset -8
    pop     %rsi
    .cfi_adjust_cfa_offset -8
    pop     %rdi
    .cfi_adjust_cfa_offset -8
    answer_or_jump cudaleak_real_dlvsym_ptr
    .cfi_endproc
    .size   dlvsym, .-dlvsym
    .size   cudaleak_dlvsym_entry, .-cudaleak_dlvsym_entry
    .section .note.GNU-stack,"",@progbits
