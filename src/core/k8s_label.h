/* Kubernetes label values (deploy/kubernetes/README.md): at most 63
 * characters of [A-Za-z0-9._-], beginning and ending alphanumeric, or
 * empty. Used by `gpudoctor nfd`; pure, no I/O. */
#ifndef GD_K8S_LABEL_H
#define GD_K8S_LABEL_H

#include <stddef.h>

#define GD_K8S_VALUE_MAX 63

/* Rewrites s into a valid label value in out (cap >= 64):
 *  - a target feature's sign keeps its meaning: "xnack-" -> "xnack-off",
 *    "xnack+" -> "xnack-on" (at the end of a ':'-separated part);
 *  - ':' becomes '.', so "gfx1010:xnack-" is "gfx1010.xnack-off";
 *  - any other character outside [A-Za-z0-9._-] becomes '_';
 *  - leading and trailing non-alphanumerics are dropped, then the value
 *    is cut to 63 characters (and trailing ones dropped again).
 * Returns the length; 0 (empty value) when nothing alphanumeric is left. */
size_t gd_k8s_label_value(const char *s, char *out, size_t cap);
/* 1 when v is a valid label value. */
int gd_k8s_label_value_valid(const char *v);

#endif
