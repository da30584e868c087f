package protocols

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// SignIn is the credential a module's probes share once one of them has signed
// in to a service (an OAuth token, a session grant): one sign-in at a time, the
// other probes waiting for it within their own deadlines instead of signing in
// too, and the credential kept until it expires or the service refuses it.
type SignIn struct {
	service string // named when a probe gives up waiting
	sem     chan struct{}
	mu      sync.Mutex
	token   string
	until   time.Time // when to replace it; zero: when the service refuses it
}

// NewSignIn returns an empty SignIn to service.
func NewSignIn(service string) *SignIn {
	return &SignIn{service: service, sem: make(chan struct{}, 1)}
}

// String keeps the credential out of %v.
func (s *SignIn) String() string { return "sign-in to " + s.service }

// Token returns the kept credential, or signs in (fresh). stale is a credential
// the service just refused: it is not returned again. signIn returns the new
// credential and when to replace it (zero: when the service refuses it; a time
// already past: not kept). A failed sign-in leaves nothing kept.
func (s *SignIn) Token(ctx context.Context, stale string, signIn func() (string, time.Time, error)) (token string, fresh bool, err error) {
	if t := s.kept(stale); t != "" {
		return t, false, nil
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return "", false, fmt.Errorf("%w: waiting for another probe's %s sign-in", wire.ErrTimeout, s.service)
	}
	defer func() { <-s.sem }()
	if t := s.kept(stale); t != "" {
		return t, false, nil // signed in while this probe waited
	}
	token, until, err := signIn()
	s.mu.Lock()
	s.token, s.until = "", time.Time{}
	if err == nil && (until.IsZero() || time.Now().Before(until)) {
		s.token, s.until = token, until
	}
	s.mu.Unlock()
	if err != nil {
		return "", false, err
	}
	return token, true, nil
}

func (s *SignIn) kept(stale string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token == "" || s.token == stale || !s.until.IsZero() && !time.Now().Before(s.until) {
		return ""
	}
	return s.token
}
