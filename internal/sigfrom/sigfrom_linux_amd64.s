#include "textflag.h"

// The kernel calls this as a C signal handler: DI the signal number, SI
// the siginfo, DX the context, on the stack it chose. It stores si_pid
// and si_uid (offsets 16 and 20, one 8-byte word) for the signal, marks
// the signal seen, and jumps to the handler Watch found, every argument
// register and the stack untouched. Only signals 1..64 are installed.
TEXT ·trampoline(SB), NOSPLIT|NOFRAME, $0-0
	MOVL	DI, CX
	MOVQ	16(SI), AX
	LEAQ	·senders(SB), R8
	MOVQ	AX, (R8)(CX*8)
	LEAQ	·seen(SB), R8
	MOVL	$1, (R8)(CX*4)
	LEAQ	·next(SB), R8
	MOVQ	(R8)(CX*8), AX
	JMP	AX

// func trampolineAddr() uintptr
TEXT ·trampolineAddr(SB), NOSPLIT, $0-8
	LEAQ	·trampoline(SB), AX
	MOVQ	AX, ret+0(FP)
	RET
