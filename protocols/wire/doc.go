// Package wire is the lowest layer of the protocols: sockets bound to a probe's
// deadline (UDP, TCP, HTTP) that record every packet in a Trace for debug output
// (UDP queries share sockets on Linux: shared_linux.go),
// the bounds-checked Reader that decoders read replies with, text conversions of
// legacy code pages, and the sentinel errors whose names are the fixed set of
// failure reasons. It knows no protocol and nothing of Prometheus.
package wire
