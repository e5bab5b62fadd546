#include "core/detmath.hpp"

#include <cmath>
#include <limits>

namespace embedlab::detmath {
namespace {

// fdlibm e_log.c
constexpr double ln2_hi = 6.93147180369123816490e-01;
constexpr double ln2_lo = 1.90821492927058770002e-10;
constexpr double Lg1 = 6.666666666666735130e-01, Lg2 = 3.999999999940941908e-01,
                 Lg3 = 2.857142874366239149e-01, Lg4 = 2.222219843214978396e-01,
                 Lg5 = 1.818357216161805012e-01, Lg6 = 1.531383769920937332e-01,
                 Lg7 = 1.479819860511658591e-01;

// fdlibm k_sin.c / k_cos.c, valid on |x| <= pi/4
constexpr double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03,
                 S3 = -1.98412698298579493134e-04, S4 = 2.75573137070700676789e-06,
                 S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
constexpr double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03,
                 C3 = 2.48015872894767294178e-05, C4 = -2.75573143513906633035e-07,
                 C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;

double kernel_sin(double x) {
  const double z = x * x, v = z * x;
  const double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x + v * (S1 + z * r);
}

double kernel_cos(double x) {
  const double z = x * x;
  const double r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  const double hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * r);
}

// (sin, cos) of r + q*pi/2 from the kernels on r.
void quadrant(double r, long q, double* s, double* c) {
  const double ks = kernel_sin(r), kc = kernel_cos(r);
  switch (q & 3) {
    case 0: *s = ks; *c = kc; break;
    case 1: *s = kc; *c = -ks; break;
    case 2: *s = -ks; *c = -kc; break;
    default: *s = -kc; *c = ks; break;
  }
}

}  // namespace

double log(double x) {
  int k = 0;
  double m = std::frexp(x, &k);  // x = m * 2^k, m in [0.5, 1): exact
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    k -= 1;
  }
  const double f = m - 1.0;  // exact (Sterbenz)
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double t1 = w * (Lg2 + w * (Lg4 + w * Lg6));
  const double t2 = z * (Lg1 + w * (Lg3 + w * (Lg5 + w * Lg7)));
  const double R = t2 + t1, hfsq = 0.5 * f * f, dk = k;
  return dk * ln2_hi - ((hfsq - (s * (hfsq + R) + dk * ln2_lo)) - f);
}

double exp(double x) {
  // fdlibm e_exp.c: x = k*ln2 + r, |r| <= ln2/2, exp(r) by a rational approximation.
  constexpr double invln2 = 1.44269504088896338700e+00;
  constexpr double P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03,
                   P3 = 6.61375632143793436117e-05, P4 = -1.65339022054652515390e-06,
                   P5 = 4.13813679705723846039e-08;
  // fdlibm's thresholds: above o_threshold the result overflows, below u_threshold it
  // underflows to 0 (also for -inf); a NaN passes through. Between them |k| <= 1075 fits an int.
  // subtle: without them the int cast of invln2 * x is undefined for |x| > 1.5e9, which a map's
  // bandwidth search reaches (exp(-(d / sigma)) with sigma halved 64 times).
  constexpr double o_threshold = 7.09782712893383973096e+02, u_threshold = -7.45133219101941108420e+02;
  if (std::isnan(x)) return x;
  if (x > o_threshold) return std::numeric_limits<double>::infinity();
  if (x < u_threshold) return 0.0;
  const int k = static_cast<int>(invln2 * x + (x < 0 ? -0.5 : 0.5));
  const double hi = x - k * ln2_hi, lo = k * ln2_lo;
  const double r = hi - lo, t = r * r;
  const double c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  const double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  return std::ldexp(y, k);
}

void sincos(double x, double* s, double* c) {
  // Cody-Waite reduction with pi/2 split in three parts (fdlibm e_rem_pio2.c constants);
  // pio2_1 has 33 significant bits, so k*pio2_1 is exact for |k| < 2^20.
  constexpr double invpio2 = 6.36619772367581382433e-01;
  constexpr double pio2_1 = 1.57079632673412561417e+00, pio2_2 = 6.07710050630396597660e-11,
                   pio2_3 = 2.02226624871116645580e-21;
  const double kd = std::nearbyint(x * invpio2);
  const double r = ((x - kd * pio2_1) - kd * pio2_2) - kd * pio2_3;
  quadrant(r, static_cast<long>(kd), s, c);
}

void sincos_turns(double u, double* s, double* c) {
  // u = q/4 + f with |f| <= 1/8: q and f are exact, so the only rounding is 2*pi*f.
  const double q = std::nearbyint(4.0 * u);
  const double f = u - 0.25 * q;
  quadrant(f * (2.0 * kPi), static_cast<long>(q), s, c);
}

}  // namespace embedlab::detmath
