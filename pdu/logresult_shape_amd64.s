#include "textflag.h"

// func maskedDiff(b *byte, tmpl, mask *uint64, n int) uint64
//
// The OR over n little-endian words of (b[i] ^ tmpl[i]) & mask[i], 64
// bytes a round in SSE2 (part of every amd64), into four accumulators.
TEXT ·maskedDiff(SB), NOSPLIT, $0-40
	MOVQ b+0(FP), SI
	MOVQ tmpl+8(FP), DI
	MOVQ mask+16(FP), DX
	MOVQ n+24(FP), CX
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3

round:
	CMPQ CX, $8
	JB   fold
	PREFETCHT0 2048(SI)
	MOVOU 0(SI), X4
	MOVOU 16(SI), X5
	MOVOU 32(SI), X6
	MOVOU 48(SI), X7
	MOVOU 0(DI), X8
	MOVOU 16(DI), X9
	MOVOU 32(DI), X10
	MOVOU 48(DI), X11
	PXOR  X8, X4
	PXOR  X9, X5
	PXOR  X10, X6
	PXOR  X11, X7
	MOVOU 0(DX), X8
	MOVOU 16(DX), X9
	MOVOU 32(DX), X10
	MOVOU 48(DX), X11
	PAND  X8, X4
	PAND  X9, X5
	PAND  X10, X6
	PAND  X11, X7
	POR   X4, X0
	POR   X5, X1
	POR   X6, X2
	POR   X7, X3
	ADDQ  $64, SI
	ADDQ  $64, DI
	ADDQ  $64, DX
	SUBQ  $8, CX
	JMP   round

fold:
	POR    X1, X0
	POR    X3, X2
	POR    X2, X0
	MOVQ   X0, AX
	PSRLDQ $8, X0
	MOVQ   X0, BX
	ORQ    BX, AX

word:
	TESTQ CX, CX
	JZ    done
	MOVQ  0(SI), BX
	XORQ  0(DI), BX
	ANDQ  0(DX), BX
	ORQ   BX, AX
	ADDQ  $8, SI
	ADDQ  $8, DI
	ADDQ  $8, DX
	DECQ  CX
	JMP   word

done:
	MOVQ AX, ret+32(FP)
	RET
