// libm's functions that store a result through a pointer argument: sincos (both results),
// frexp (the exponent), modf (the integral part), lgamma_r (the sign), remquo (the quotient's
// low bits), each in its float and long double forms; lgamma and gamma store the sign in libm's
// global `signgam` (C99 7.12.8.3: not thread-safe, two threads' calls race on it). Each is a
// write of what it stores, after the real call. The wrappers link the runtime before libm
// (firstrace-wrapper.sh.in), so that these definitions are the ones the program binds to.
#include <math.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

namespace {
// <math.h> in C++ overloads several of these: each real function is declared with its C type.
using sincos_fn = void (*)(double, double*, double*);
using sincosf_fn = void (*)(float, float*, float*);
using sincosl_fn = void (*)(long double, long double*, long double*);
using double_int_out_fn = double (*)(double, int*);
using float_int_out_fn = float (*)(float, int*);
using long_double_int_out_fn = long double (*)(long double, int*);
using modf_fn = double (*)(double, double*);
using modff_fn = float (*)(float, float*);
using modfl_fn = long double (*)(long double, long double*);
using remquo_fn = double (*)(double, double, int*);
using remquof_fn = float (*)(float, float, int*);
using remquol_fn = long double (*)(long double, long double, int*);
using double_fn = double (*)(double);
using float_fn = float (*)(float);
using long_double_fn = long double (*)(long double);
FRT_DECLARE_REAL_TYPED(sincos, sincos_fn);
FRT_DECLARE_REAL_TYPED(sincosf, sincosf_fn);
FRT_DECLARE_REAL_TYPED(sincosl, sincosl_fn);
FRT_DECLARE_REAL_TYPED(frexp, double_int_out_fn);
FRT_DECLARE_REAL_TYPED(frexpf, float_int_out_fn);
FRT_DECLARE_REAL_TYPED(frexpl, long_double_int_out_fn);
FRT_DECLARE_REAL_TYPED(modf, modf_fn);
FRT_DECLARE_REAL_TYPED(modff, modff_fn);
FRT_DECLARE_REAL_TYPED(modfl, modfl_fn);
FRT_DECLARE_REAL_TYPED(lgamma_r, double_int_out_fn);
FRT_DECLARE_REAL_TYPED(lgammaf_r, float_int_out_fn);
FRT_DECLARE_REAL_TYPED(lgammal_r, long_double_int_out_fn);
FRT_DECLARE_REAL_TYPED(remquo, remquo_fn);
FRT_DECLARE_REAL_TYPED(remquof, remquof_fn);
FRT_DECLARE_REAL_TYPED(remquol, remquol_fn);
FRT_DECLARE_REAL_TYPED(lgamma, double_fn);
FRT_DECLARE_REAL_TYPED(lgammaf, float_fn);
FRT_DECLARE_REAL_TYPED(lgammal, long_double_fn);
FRT_DECLARE_REAL_TYPED(gamma, double_fn);
FRT_DECLARE_REAL_TYPED(gammaf, float_fn);

// The objects a call made at pc stored into.
template <class... T> void stored(u64 pc, T*... outputs) {
    if (LibraryCall call(pc); call) (call.bytes(outputs, sizeof *outputs, true), ...);
}
// The real function's result, after which *output is recorded as stored by the call at pc.
template <class Real, class Output, class... Args>
auto storing(u64 pc, Real real, Output* output, Args... args) {
    const auto r = real(args...);
    stored(pc, output);
    return r;
}
} // namespace

FRT_EXPORT void sincos(double x, double* s, double* c) {
    REAL(sincos)(x, s, c);
    stored(FRT_CALLER(), s, c);
}
FRT_EXPORT void sincosf(float x, float* s, float* c) {
    REAL(sincosf)(x, s, c);
    stored(FRT_CALLER(), s, c);
}
FRT_EXPORT void sincosl(long double x, long double* s, long double* c) {
    REAL(sincosl)(x, s, c);
    stored(FRT_CALLER(), s, c);
}

FRT_EXPORT double frexp(double x, int* exponent) {
    return storing(FRT_CALLER(), REAL(frexp), exponent, x, exponent);
}
FRT_EXPORT float frexpf(float x, int* exponent) {
    return storing(FRT_CALLER(), REAL(frexpf), exponent, x, exponent);
}
FRT_EXPORT long double frexpl(long double x, int* exponent) {
    return storing(FRT_CALLER(), REAL(frexpl), exponent, x, exponent);
}

FRT_EXPORT double modf(double x, double* integral) {
    return storing(FRT_CALLER(), REAL(modf), integral, x, integral);
}
FRT_EXPORT float modff(float x, float* integral) {
    return storing(FRT_CALLER(), REAL(modff), integral, x, integral);
}
FRT_EXPORT long double modfl(long double x, long double* integral) {
    return storing(FRT_CALLER(), REAL(modfl), integral, x, integral);
}

FRT_EXPORT double lgamma_r(double x, int* sign) {
    return storing(FRT_CALLER(), REAL(lgamma_r), sign, x, sign);
}
FRT_EXPORT float lgammaf_r(float x, int* sign) {
    return storing(FRT_CALLER(), REAL(lgammaf_r), sign, x, sign);
}
FRT_EXPORT long double lgammal_r(long double x, int* sign) {
    return storing(FRT_CALLER(), REAL(lgammal_r), sign, x, sign);
}

FRT_EXPORT double remquo(double x, double y, int* quotient) {
    return storing(FRT_CALLER(), REAL(remquo), quotient, x, y, quotient);
}
FRT_EXPORT float remquof(float x, float y, int* quotient) {
    return storing(FRT_CALLER(), REAL(remquof), quotient, x, y, quotient);
}
FRT_EXPORT long double remquol(long double x, long double y, int* quotient) {
    return storing(FRT_CALLER(), REAL(remquol), quotient, x, y, quotient);
}

FRT_EXPORT double lgamma(double x) {
    return storing(FRT_CALLER(), REAL(lgamma), &signgam, x);
}
FRT_EXPORT float lgammaf(float x) {
    return storing(FRT_CALLER(), REAL(lgammaf), &signgam, x);
}
FRT_EXPORT long double lgammal(long double x) {
    return storing(FRT_CALLER(), REAL(lgammal), &signgam, x);
}
FRT_EXPORT double gamma(double x) {
    return storing(FRT_CALLER(), REAL(gamma), &signgam, x);
}
FRT_EXPORT float gammaf(float x) {
    return storing(FRT_CALLER(), REAL(gammaf), &signgam, x);
}

FRT_INTERCEPTOR_ALIAS(sincos)
FRT_INTERCEPTOR_ALIAS(sincosf)
FRT_INTERCEPTOR_ALIAS(sincosl)
FRT_INTERCEPTOR_ALIAS(frexp)
FRT_INTERCEPTOR_ALIAS(frexpf)
FRT_INTERCEPTOR_ALIAS(frexpl)
FRT_INTERCEPTOR_ALIAS(modf)
FRT_INTERCEPTOR_ALIAS(modff)
FRT_INTERCEPTOR_ALIAS(modfl)
FRT_INTERCEPTOR_ALIAS(lgamma_r)
FRT_INTERCEPTOR_ALIAS(lgammaf_r)
FRT_INTERCEPTOR_ALIAS(lgammal_r)
FRT_INTERCEPTOR_ALIAS(remquo)
FRT_INTERCEPTOR_ALIAS(remquof)
FRT_INTERCEPTOR_ALIAS(remquol)
FRT_INTERCEPTOR_ALIAS(lgamma)
FRT_INTERCEPTOR_ALIAS(lgammaf)
FRT_INTERCEPTOR_ALIAS(lgammal)
FRT_INTERCEPTOR_ALIAS(gamma)
FRT_INTERCEPTOR_ALIAS(gammaf)
