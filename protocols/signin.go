package protocols

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"sync"
	"time"
	"weak"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// SignIn is the credential a module's probes share once one of them has signed
// in to a service (an OAuth token, a session grant): one sign-in at a time, the
// other probes waiting for it within their own deadlines instead of signing in
// too, and the credential kept until it expires or the service refuses it. A
// failed sign-in is not retried at once: the probes until the next attempt
// fail with its error, the wait doubling with each failure in a row
// (signInBackoff up to signInBackoffMax), so a refused secret is not sent
// with every probe.
type SignIn struct {
	service string // named when a probe gives up waiting
	sem     chan struct{}
	mu      sync.Mutex
	token   string
	until   time.Time // when to replace it; zero: when the service refuses it

	failures int       // failed sign-ins in a row
	retryAt  time.Time // no sign-in before then
	lastErr  error
	now      func() time.Time // the clock (tests)
}

// The wait after a failed sign-in: signInBackoff, doubling with every
// failure in a row, at most signInBackoffMax.
const (
	signInBackoff    = 2 * time.Second
	signInBackoffMax = 5 * time.Minute
)

// NewSignIn returns an empty SignIn to service.
func NewSignIn(service string) *SignIn {
	return &SignIn{service: service, sem: make(chan struct{}, 1), now: time.Now}
}

// signIns are the SignIns SharedSignIn handed out, while a module holds them.
var signIns = struct {
	sync.Mutex
	m map[string]weak.Pointer[SignIn]
}{m: map[string]weak.Pointer[SignIn]{}}

// SharedSignIn returns the SignIn to service with credential (the parts that
// decide what a sign-in yields: account, secret, endpoint), the same one for
// as long as a module holds it: a reload that keeps a module's credentials
// keeps its sign-in (and its backoff), and modules with the same credentials
// share one. The credential is kept only as a hash.
func SharedSignIn(service string, credential ...string) *SignIn {
	h := sha256.New()
	for _, c := range append([]string{service}, credential...) {
		fmt.Fprintf(h, "%d:%s", len(c), c)
	}
	key := string(h.Sum(nil))
	signIns.Lock()
	defer signIns.Unlock()
	if s := signIns.m[key].Value(); s != nil {
		return s
	}
	s := NewSignIn(service)
	signIns.m[key] = weak.Make(s)
	runtime.AddCleanup(s, func(key string) {
		signIns.Lock()
		defer signIns.Unlock()
		if signIns.m[key].Value() == nil { // not a newer one's
			delete(signIns.m, key)
		}
	}, key)
	return s
}

// String keeps the credential out of %v.
func (s *SignIn) String() string { return "sign-in to " + s.service }

// Token returns the kept credential, or signs in (fresh). stale is a credential
// the service just refused: it is not returned again. signIn returns the new
// credential and when to replace it (zero: when the service refuses it; a time
// already past: not kept). A failed sign-in leaves nothing kept, and the next
// one waits (the backoff): until then Token fails with its error.
func (s *SignIn) Token(ctx context.Context, stale string, signIn func() (string, time.Time, error)) (token string, fresh bool, err error) {
	if t, err := s.kept(stale); t != "" || err != nil {
		return t, false, err
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return "", false, fmt.Errorf("%w: waiting for another probe's %s sign-in", wire.ErrTimeout, s.service)
	}
	defer func() { <-s.sem }()
	if t, err := s.kept(stale); t != "" || err != nil {
		return t, false, err // signed in (or failed) while this probe waited
	}
	token, until, err := signIn()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token, s.until = "", time.Time{}
	switch {
	case err == nil:
		s.failures, s.lastErr = 0, nil
		if until.IsZero() || s.now().Before(until) {
			s.token, s.until = token, until
		}
	case ctx.Err() == nil: // the service's failure, not the probe's deadline
		s.failures++
		s.lastErr = err
		s.retryAt = s.now().Add(backoff(s.failures))
	}
	if err != nil {
		return "", false, err
	}
	return token, true, nil
}

// backoff is the wait after the n-th failed sign-in in a row.
func backoff(n int) time.Duration {
	w := signInBackoff
	for i := 1; i < n && w < signInBackoffMax; i++ {
		w *= 2
	}
	return min(w, signInBackoffMax)
}

// kept returns the kept credential, or the last sign-in's error while its
// backoff lasts, or neither: sign in.
func (s *SignIn) kept(stale string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.lastErr != nil && now.Before(s.retryAt) {
		return "", fmt.Errorf("%w (the %s sign-in failed %d times in a row: next attempt in %s)",
			s.lastErr, s.service, s.failures, s.retryAt.Sub(now).Round(time.Second))
	}
	if s.token == "" || s.token == stale || !s.until.IsZero() && !now.Before(s.until) {
		return "", nil
	}
	return s.token, nil
}
