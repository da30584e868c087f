package wire

import (
	"context"
	"errors"
)

// Sentinel errors naming why a query failed. Every error returned by this package and
// by a protocol wraps exactly one of them, so the failure reason is a fixed small set.
var (
	ErrDNS        = errors.New("dns")          // the target name did not resolve
	ErrRefused    = errors.New("refused")      // connection refused / ICMP port unreachable
	ErrTimeout    = errors.New("timeout")      // no (complete) answer before the deadline
	ErrChallenge  = errors.New("challenge")    // challenge handshake did not converge
	ErrMalformed  = errors.New("malformed")    // bytes that do not parse
	ErrTruncated  = errors.New("truncated")    // a reply that ends too early
	ErrMismatch   = errors.New("mismatch")     // an echo, cookie or id that does not match
	ErrServer     = errors.New("server_error") // the server answered with an explicit error
	ErrTooLarge   = errors.New("too_large")    // a peer-controlled length over its cap
	ErrNetwork    = errors.New("network")      // any other socket error
	ErrOverloaded = errors.New("overloaded")   // the exporter's own limits refused the probe
	// ErrNotAllowed: the module carries a credential and the target is not among
	// those the operator listed for it (targets:); nothing was sent.
	ErrNotAllowed = errors.New("target_not_allowed")
	ErrNotListed  = errors.New("not_listed") // a list-read server is not in its list (protocol list)
)

var reasons = []error{
	ErrDNS, ErrRefused, ErrTimeout, ErrChallenge, ErrMalformed, ErrTruncated,
	ErrMismatch, ErrServer, ErrTooLarge, ErrNetwork, ErrOverloaded, ErrNotAllowed, ErrNotListed,
}

// Reason maps an error to its failure reason; "" for nil, "other" for anything unknown.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	for _, r := range reasons {
		if errors.Is(err, r) {
			return r.Error()
		}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return ErrTimeout.Error()
	}
	return "other"
}
