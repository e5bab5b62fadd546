// Deterministic elementary functions in plain double arithmetic.
//
// The native and the wasm build must produce bit-identical tables for the same
// seed, so the engine never calls the platform's libm for log, exp, sin or cos:
// two libm's need not agree in the last bit. These are ports of fdlibm's
// kernels (Sun Microsystems, 1993; the same polynomials as musl and FreeBSD):
// each is a fixed sequence of IEEE-754 double operations, so every conforming
// platform computes the same bits, provided the compiler does not contract
// a*b+c into an FMA (the build passes -ffp-contract=off).
//
// Accuracy: below 1 ulp of double for log/exp; sin/cos below 1 ulp after the
// Cody-Waite reduction, which is exact for |x| < 2^19 * pi/2. Inputs beyond
// that are not needed by the engine (positions are capped far below).
#pragma once

namespace embedlab::detmath {

// Natural logarithm for finite x > 0. Example: log(1.0) == 0.0.
double log(double x);

// e^x: +inf above 709.78 (fdlibm's o_threshold), 0 below -745.13 and for -inf, NaN for NaN.
double exp(double x);

// sin and cos of x radians, |x| < 2^19 * pi/2.
void sincos(double x, double* s, double* c);

// sin and cos of 2*pi*u for u in [0, 1], reduced in turns (exact reduction).
// Example: sincos_turns(0.25) -> (1, 0).
void sincos_turns(double u, double* s, double* c);

inline constexpr double kPi = 3.14159265358979311600e+00;

}  // namespace embedlab::detmath
