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

// func maskedDiffAVX2(b *byte, tmpl, mask *uint64, n int) uint64
//
// maskedDiff 128 bytes a round in AVX2, for CPUs that have it.
TEXT ·maskedDiffAVX2(SB), NOSPLIT, $0-40
	MOVQ b+0(FP), SI
	MOVQ tmpl+8(FP), DI
	MOVQ mask+16(FP), DX
	MOVQ n+24(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3

vround:
	CMPQ CX, $16
	JB   vfold
	PREFETCHT0 2048(SI)
	PREFETCHT0 2112(SI)
	VMOVDQU 0(SI), Y4
	VMOVDQU 32(SI), Y5
	VMOVDQU 64(SI), Y6
	VMOVDQU 96(SI), Y7
	VPXOR   0(DI), Y4, Y4
	VPXOR   32(DI), Y5, Y5
	VPXOR   64(DI), Y6, Y6
	VPXOR   96(DI), Y7, Y7
	VPAND   0(DX), Y4, Y4
	VPAND   32(DX), Y5, Y5
	VPAND   64(DX), Y6, Y6
	VPAND   96(DX), Y7, Y7
	VPOR    Y4, Y0, Y0
	VPOR    Y5, Y1, Y1
	VPOR    Y6, Y2, Y2
	VPOR    Y7, Y3, Y3
	ADDQ    $128, SI
	ADDQ    $128, DI
	ADDQ    $128, DX
	SUBQ    $16, CX
	JMP     vround

vfold:
	VPOR         Y1, Y0, Y0
	VPOR         Y3, Y2, Y2
	VPOR         Y2, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPOR         X1, X0, X0
	VMOVQ        X0, AX
	VPEXTRQ      $1, X0, BX
	ORQ          BX, AX
	VZEROUPPER

vword:
	TESTQ CX, CX
	JZ    vdone
	MOVQ  0(SI), BX
	XORQ  0(DI), BX
	ANDQ  0(DX), BX
	ORQ   BX, AX
	ADDQ  $8, SI
	ADDQ  $8, DI
	ADDQ  $8, DX
	DECQ  CX
	JMP   vword

vdone:
	MOVQ AX, ret+32(FP)
	RET

// func hasAVX2() bool
//
// CPUID and XGETBV: the CPU has AVX2 and the OS keeps the YMM state.
// Leaf 7 is asked only where leaf 0 says it exists: a CPU (or a virtual
// one) without it answers a higher leaf with another leaf's words.
TEXT ·hasAVX2(SB), NOSPLIT, $0-1
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JB   no
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL CX, R8
	ANDL $0x18000000, R8
	CMPL R8, $0x18000000
	JNE  no
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  no
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $5, BX
	JCC  no
	MOVB $1, ret+0(FP)
	RET

no:
	MOVB $0, ret+0(FP)
	RET

// func maskDiff(b *byte, tmpl *uint64, km *uint16, n int) bool
//
// Whether any of n 64-byte chunks of b differs from tmpl under its mask,
// in AVX-512: km holds a chunk's mask, a bit per 4-byte word, which
// VPCMPD takes as its write mask, so that the mask read per chunk is 2
// bytes where maskedDiff reads 64 beside the record's and the template's.
TEXT ·maskDiff(SB), NOSPLIT, $0-33
	MOVQ     b+0(FP), SI
	MOVQ     tmpl+8(FP), DI
	MOVQ     km+16(FP), DX
	MOVQ     n+24(FP), CX
	KXORW    K3, K3, K3

kround:
	TESTQ      CX, CX
	JZ         kdone
	PREFETCHT0 2048(SI)
	KMOVW      (DX), K1
	VMOVDQU32  (DI), Z0
	VPCMPD     $4, (SI), Z0, K1, K2
	KORW       K2, K3, K3
	ADDQ       $64, SI
	ADDQ       $64, DI
	ADDQ       $2, DX
	DECQ       CX
	JMP        kround

kdone:
	KORTESTW K3, K3
	SETNE    ret+32(FP)
	VZEROUPPER
	RET

// func hasAVX512() bool
//
// CPUID and XGETBV: the CPU has AVX-512 F and POPCNT, and the OS keeps
// the opmask and ZMM state (XCR0 bits 1, 2 and 5-7).
TEXT ·hasAVX512(SB), NOSPLIT, $0-1
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7
	JB   no512
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL CX, R8
	ANDL $0x08800000, R8
	CMPL R8, $0x08800000
	JNE  no512
	XORL CX, CX
	XGETBV
	ANDL $0xe6, AX
	CMPL AX, $0xe6
	JNE  no512
	MOVL $7, AX
	XORL CX, CX
	CPUID
	BTL  $16, BX
	JCC  no512
	MOVB $1, ret+0(FP)
	RET

no512:
	MOVB $0, ret+0(FP)
	RET
