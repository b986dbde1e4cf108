// SPDX-License-Identifier: LGPL-2.1-or-later
// VP9 1-D inverse transforms (DCT 4..32, ADST 4..16, WHT 4) for one lane, in place on int arrays.
// Arithmetic contract (as kernels/vp9/itx_ref.cpp): 32-bit two's-complement wrapping add, sub
// and mul (GLSL/SPIR-V integer ops wrap), so only the rounding shifts rnd14() and the WHT's shifts
// are non-linear; every rnd14() here rounds the same sum as the reference's, hence bit-exact.

// cos64(k) = round(16384 * cos(k * pi / 64)), k = 1..31: the VP9 specification's cos64 table
// (section 8.7.1, inverse DCT array process; libvpx's cospi_k_64).
const int C1 = 16364, C2 = 16305, C3 = 16207, C4 = 16069, C5 = 15893, C6 = 15679, C7 = 15426,
          C8 = 15137, C9 = 14811, C10 = 14449, C11 = 14053, C12 = 13623, C13 = 13160,
          C14 = 12665, C15 = 12140, C16 = 11585, C17 = 11003, C18 = 10394, C19 = 9760,
          C20 = 9102, C21 = 8423, C22 = 7723, C23 = 7005, C24 = 6270, C25 = 5520, C26 = 4756,
          C27 = 3981, C28 = 3196, C29 = 2404, C30 = 1606, C31 = 804;
// SINPI_k_9 of the VP9 specification's inverse ADST4 process, k = 1..4.
const int S1 = 5283, S2 = 9929, S3 = 13377, S4 = 15212;

// Round2(v, 14) (libvpx dct_const_round_shift) with a wrapping add.
int rnd14(int v) { return (v + 8192) >> 14; }

void idct4(inout int x[4]) {
  int e0 = rnd14((x[0] + x[2]) * C16);
  int e1 = rnd14((x[0] - x[2]) * C16);
  int o0 = rnd14(x[1] * C8 + x[3] * C24);
  int o1 = rnd14(x[1] * C24 - x[3] * C8);
  x[0] = e0 + o0;
  x[1] = e1 + o1;
  x[2] = e1 - o1;
  x[3] = e0 - o0;
}

void idct8(inout int x[8]) {
  int e[4] = int[4](x[0], x[2], x[4], x[6]);
  idct4(e);
  // Odd half from inputs 1, 3, 5, 7.
  int a4 = rnd14(x[1] * C28 - x[7] * C4);
  int a7 = rnd14(x[1] * C4 + x[7] * C28);
  int a5 = rnd14(x[5] * C12 - x[3] * C20);
  int a6 = rnd14(x[5] * C20 + x[3] * C12);
  int b4 = a4 + a5, b5 = a4 - a5, b6 = a7 - a6, b7 = a6 + a7;
  int c5 = rnd14((b6 - b5) * C16);
  int c6 = rnd14((b5 + b6) * C16);
  x[0] = e[0] + b7;
  x[7] = e[0] - b7;
  x[1] = e[1] + c6;
  x[6] = e[1] - c6;
  x[2] = e[2] + c5;
  x[5] = e[2] - c5;
  x[3] = e[3] + b4;
  x[4] = e[3] - b4;
}

void idct16(inout int x[16]) {
  int e[8] = int[8](x[0], x[2], x[4], x[6], x[8], x[10], x[12], x[14]);
  idct8(e);
  // Odd half from inputs 1, 3, ..., 15.
  int a8 = rnd14(x[1] * C30 - x[15] * C2);
  int a15 = rnd14(x[1] * C2 + x[15] * C30);
  int a9 = rnd14(x[9] * C14 - x[7] * C18);
  int a14 = rnd14(x[9] * C18 + x[7] * C14);
  int a10 = rnd14(x[5] * C22 - x[11] * C10);
  int a13 = rnd14(x[5] * C10 + x[11] * C22);
  int a11 = rnd14(x[13] * C6 - x[3] * C26);
  int a12 = rnd14(x[13] * C26 + x[3] * C6);

  int b8 = a8 + a9, b9 = a8 - a9, b10 = a11 - a10, b11 = a10 + a11;
  int b12 = a12 + a13, b13 = a12 - a13, b14 = a15 - a14, b15 = a14 + a15;

  int c9 = rnd14(b14 * C24 - b9 * C8);
  int c14 = rnd14(b9 * C24 + b14 * C8);
  int c10 = rnd14(-b10 * C24 - b13 * C8);
  int c13 = rnd14(b13 * C24 - b10 * C8);

  int d8 = b8 + b11, d9 = c9 + c10, d10 = c9 - c10, d11 = b8 - b11;
  int d12 = b15 - b12, d13 = c14 - c13, d14 = c13 + c14, d15 = b12 + b15;

  int f10 = rnd14((d13 - d10) * C16);
  int f13 = rnd14((d10 + d13) * C16);
  int f11 = rnd14((d12 - d11) * C16);
  int f12 = rnd14((d11 + d12) * C16);

  int o[8] = int[8](d15, d14, f13, f12, f11, f10, d9, d8);  // o[k] pairs with e[k]
  for (int k = 0; k < 8; k++) {
    x[k] = e[k] + o[k];
    x[15 - k] = e[k] - o[k];
  }
}

#if V3D_ITX_LOG2N == 5
void idct32(inout int x[32]) {
  int e[16] = int[16](x[0], x[2], x[4], x[6], x[8], x[10], x[12], x[14], x[16], x[18], x[20],
                      x[22], x[24], x[26], x[28], x[30]);
  idct16(e);
  // Odd half from inputs 1, 3, ..., 31.
  int a16 = rnd14(x[1] * C31 - x[31] * C1);
  int a31 = rnd14(x[1] * C1 + x[31] * C31);
  int a17 = rnd14(x[17] * C15 - x[15] * C17);
  int a30 = rnd14(x[17] * C17 + x[15] * C15);
  int a18 = rnd14(x[9] * C23 - x[23] * C9);
  int a29 = rnd14(x[9] * C9 + x[23] * C23);
  int a19 = rnd14(x[25] * C7 - x[7] * C25);
  int a28 = rnd14(x[25] * C25 + x[7] * C7);
  int a20 = rnd14(x[5] * C27 - x[27] * C5);
  int a27 = rnd14(x[5] * C5 + x[27] * C27);
  int a21 = rnd14(x[21] * C11 - x[11] * C21);
  int a26 = rnd14(x[21] * C21 + x[11] * C11);
  int a22 = rnd14(x[13] * C19 - x[19] * C13);
  int a25 = rnd14(x[13] * C13 + x[19] * C19);
  int a23 = rnd14(x[29] * C3 - x[3] * C29);
  int a24 = rnd14(x[29] * C29 + x[3] * C3);

  int b16 = a16 + a17, b17 = a16 - a17, b18 = a19 - a18, b19 = a18 + a19;
  int b20 = a20 + a21, b21 = a20 - a21, b22 = a23 - a22, b23 = a22 + a23;
  int b24 = a24 + a25, b25 = a24 - a25, b26 = a27 - a26, b27 = a26 + a27;
  int b28 = a28 + a29, b29 = a28 - a29, b30 = a31 - a30, b31 = a30 + a31;

  int c17 = rnd14(b30 * C28 - b17 * C4);
  int c30 = rnd14(b17 * C28 + b30 * C4);
  int c18 = rnd14(-b18 * C28 - b29 * C4);
  int c29 = rnd14(b29 * C28 - b18 * C4);
  int c21 = rnd14(b26 * C12 - b21 * C20);
  int c26 = rnd14(b21 * C12 + b26 * C20);
  int c22 = rnd14(-b22 * C12 - b25 * C20);
  int c25 = rnd14(b25 * C12 - b22 * C20);

  int d16 = b16 + b19, d17 = c17 + c18, d18 = c17 - c18, d19 = b16 - b19;
  int d20 = b23 - b20, d21 = c22 - c21, d22 = c21 + c22, d23 = b20 + b23;
  int d24 = b24 + b27, d25 = c25 + c26, d26 = c25 - c26, d27 = b24 - b27;
  int d28 = b31 - b28, d29 = c30 - c29, d30 = c29 + c30, d31 = b28 + b31;

  int e18 = rnd14(d29 * C24 - d18 * C8);
  int e29 = rnd14(d18 * C24 + d29 * C8);
  int e19 = rnd14(d28 * C24 - d19 * C8);
  int e28 = rnd14(d19 * C24 + d28 * C8);
  int e20 = rnd14(-d20 * C24 - d27 * C8);
  int e27 = rnd14(d27 * C24 - d20 * C8);
  int e21 = rnd14(-d21 * C24 - d26 * C8);
  int e26 = rnd14(d26 * C24 - d21 * C8);

  int f16 = d16 + d23, f17 = d17 + d22, f18 = e18 + e21, f19 = e19 + e20;
  int f20 = e19 - e20, f21 = e18 - e21, f22 = d17 - d22, f23 = d16 - d23;
  int f24 = d31 - d24, f25 = d30 - d25, f26 = e29 - e26, f27 = e28 - e27;
  int f28 = e27 + e28, f29 = e26 + e29, f30 = d25 + d30, f31 = d24 + d31;

  int g20 = rnd14((f27 - f20) * C16);
  int g27 = rnd14((f20 + f27) * C16);
  int g21 = rnd14((f26 - f21) * C16);
  int g26 = rnd14((f21 + f26) * C16);
  int g22 = rnd14((f25 - f22) * C16);
  int g25 = rnd14((f22 + f25) * C16);
  int g23 = rnd14((f24 - f23) * C16);
  int g24 = rnd14((f23 + f24) * C16);

  // o[k] pairs with e[k]: out[k] = e[k] + o[k], out[31 - k] = e[k] - o[k].
  int o[16] = int[16](f31, f30, f29, f28, g27, g26, g25, g24, g23, g22, g21, g20, f19, f18, f17,
                      f16);
  for (int k = 0; k < 16; k++) {
    x[k] = e[k] + o[k];
    x[31 - k] = e[k] - o[k];
  }
}
#endif

void iadst4(inout int x[4]) {
  int s0 = S1 * x[0] + S4 * x[2] + S2 * x[3];
  int s1 = S2 * x[0] - S1 * x[2] - S4 * x[3];
  int s2 = S3 * (x[0] - x[2] + x[3]);
  int s3 = S3 * x[1];
  x[0] = rnd14(s0 + s3);
  x[1] = rnd14(s1 + s3);
  x[2] = rnd14(s2);
  x[3] = rnd14(s0 + s1 - s3);
}

void iadst8(inout int x[8]) {
  // Stage 1: rotations of the input pairs (7, 0), (5, 2), (3, 4), (1, 6).
  int s0 = C2 * x[7] + C30 * x[0], s1 = C30 * x[7] - C2 * x[0];
  int s2 = C10 * x[5] + C22 * x[2], s3 = C22 * x[5] - C10 * x[2];
  int s4 = C18 * x[3] + C14 * x[4], s5 = C14 * x[3] - C18 * x[4];
  int s6 = C26 * x[1] + C6 * x[6], s7 = C6 * x[1] - C26 * x[6];
  int a0 = rnd14(s0 + s4), a1 = rnd14(s1 + s5), a2 = rnd14(s2 + s6), a3 = rnd14(s3 + s7);
  int a4 = rnd14(s0 - s4), a5 = rnd14(s1 - s5), a6 = rnd14(s2 - s6), a7 = rnd14(s3 - s7);
  // Stage 2.
  int t4 = C8 * a4 + C24 * a5, t5 = C24 * a4 - C8 * a5;
  int t6 = C8 * a7 - C24 * a6, t7 = C8 * a6 + C24 * a7;
  int b0 = a0 + a2, b1 = a1 + a3, b2 = a0 - a2, b3 = a1 - a3;
  int b4 = rnd14(t4 + t6), b5 = rnd14(t5 + t7), b6 = rnd14(t4 - t6), b7 = rnd14(t5 - t7);
  // Stage 3.
  int g2 = rnd14(C16 * (b2 + b3)), g3 = rnd14(C16 * (b2 - b3));
  int g6 = rnd14(C16 * (b6 + b7)), g7 = rnd14(C16 * (b6 - b7));
  x[0] = b0;
  x[1] = -b4;
  x[2] = g6;
  x[3] = -g2;
  x[4] = g3;
  x[5] = -g7;
  x[6] = b5;
  x[7] = -b1;
}

#if V3D_ITX_LOG2N == 4
void iadst16(inout int x[16]) {
  // Stage 1: rotations of the input pairs (15, 0), (13, 2), ..., (1, 14).
  int s0 = x[15] * C1 + x[0] * C31, s1 = x[15] * C31 - x[0] * C1;
  int s2 = x[13] * C5 + x[2] * C27, s3 = x[13] * C27 - x[2] * C5;
  int s4 = x[11] * C9 + x[4] * C23, s5 = x[11] * C23 - x[4] * C9;
  int s6 = x[9] * C13 + x[6] * C19, s7 = x[9] * C19 - x[6] * C13;
  int s8 = x[7] * C17 + x[8] * C15, s9 = x[7] * C15 - x[8] * C17;
  int s10 = x[5] * C21 + x[10] * C11, s11 = x[5] * C11 - x[10] * C21;
  int s12 = x[3] * C25 + x[12] * C7, s13 = x[3] * C7 - x[12] * C25;
  int s14 = x[1] * C29 + x[14] * C3, s15 = x[1] * C3 - x[14] * C29;
  int a0 = rnd14(s0 + s8), a1 = rnd14(s1 + s9), a2 = rnd14(s2 + s10), a3 = rnd14(s3 + s11);
  int a4 = rnd14(s4 + s12), a5 = rnd14(s5 + s13), a6 = rnd14(s6 + s14), a7 = rnd14(s7 + s15);
  int a8 = rnd14(s0 - s8), a9 = rnd14(s1 - s9), a10 = rnd14(s2 - s10), a11 = rnd14(s3 - s11);
  int a12 = rnd14(s4 - s12), a13 = rnd14(s5 - s13), a14 = rnd14(s6 - s14), a15 = rnd14(s7 - s15);
  // Stage 2.
  int t8 = a8 * C4 + a9 * C28, t9 = a8 * C28 - a9 * C4;
  int t10 = a10 * C20 + a11 * C12, t11 = a10 * C12 - a11 * C20;
  int t12 = a13 * C4 - a12 * C28, t13 = a12 * C4 + a13 * C28;
  int t14 = a15 * C20 - a14 * C12, t15 = a14 * C20 + a15 * C12;
  int b0 = a0 + a4, b1 = a1 + a5, b2 = a2 + a6, b3 = a3 + a7;
  int b4 = a0 - a4, b5 = a1 - a5, b6 = a2 - a6, b7 = a3 - a7;
  int b8 = rnd14(t8 + t12), b9 = rnd14(t9 + t13), b10 = rnd14(t10 + t14), b11 = rnd14(t11 + t15);
  int b12 = rnd14(t8 - t12), b13 = rnd14(t9 - t13), b14 = rnd14(t10 - t14), b15 = rnd14(t11 - t15);
  // Stage 3.
  int u4 = b4 * C8 + b5 * C24, u5 = b4 * C24 - b5 * C8;
  int u6 = b7 * C8 - b6 * C24, u7 = b6 * C8 + b7 * C24;
  int u12 = b12 * C8 + b13 * C24, u13 = b12 * C24 - b13 * C8;
  int u14 = b15 * C8 - b14 * C24, u15 = b14 * C8 + b15 * C24;
  int c0 = b0 + b2, c1 = b1 + b3, c2 = b0 - b2, c3 = b1 - b3;
  int c4 = rnd14(u4 + u6), c5 = rnd14(u5 + u7), c6 = rnd14(u4 - u6), c7 = rnd14(u5 - u7);
  int c8 = b8 + b10, c9 = b9 + b11, c10 = b8 - b10, c11 = b9 - b11;
  int c12 = rnd14(u12 + u14), c13 = rnd14(u13 + u15), c14 = rnd14(u12 - u14), c15 = rnd14(u13 - u15);
  // Stage 4.
  int g2 = rnd14(-C16 * (c2 + c3)), g3 = rnd14(C16 * (c2 - c3));
  int g6 = rnd14(C16 * (c6 + c7)), g7 = rnd14(C16 * (c7 - c6));
  int g10 = rnd14(C16 * (c10 + c11)), g11 = rnd14(C16 * (c11 - c10));
  int g14 = rnd14(-C16 * (c14 + c15)), g15 = rnd14(C16 * (c14 - c15));
  x[0] = c0;
  x[1] = -c8;
  x[2] = c12;
  x[3] = -c4;
  x[4] = g6;
  x[5] = g14;
  x[6] = g10;
  x[7] = g2;
  x[8] = g3;
  x[9] = g11;
  x[10] = g15;
  x[11] = g7;
  x[12] = c5;
  x[13] = -c13;
  x[14] = c9;
  x[15] = -c1;
}
#endif

// Inverse WHT (lossless 4x4); shift is 2 (UNIT_QUANT_SHIFT) for the first pass, 0 for the second.
void iwht4(inout int x[4], int shift) {
  int a = x[0] >> shift, c = x[1] >> shift, d = x[2] >> shift, b = x[3] >> shift;
  a += c;
  d -= b;
  int e = (a - d) >> 1;
  b = e - b;
  c = e - c;
  a -= b;
  d += c;
  x[0] = a;
  x[1] = b;
  x[2] = c;
  x[3] = d;
}
