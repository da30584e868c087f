package protocols

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestSignIn(t *testing.T) {
	ctx := context.Background()
	var calls atomic.Int32
	sign := func(until time.Time, err error) func() (string, time.Time, error) {
		return func() (string, time.Time, error) {
			n := calls.Add(1)
			if err != nil {
				return "", time.Time{}, err
			}
			return fmt.Sprintf("t%d", n), until, nil
		}
	}
	never := func() (string, time.Time, error) { t.Fatal("signed in again"); return "", time.Time{}, nil }

	s := NewSignIn("Example")
	clock := time.Now()
	s.now = func() time.Time { return clock }
	if tok, fresh, err := s.Token(ctx, "", sign(time.Time{}, nil)); tok != "t1" || !fresh || err != nil {
		t.Fatalf("first: %q %v %v", tok, fresh, err)
	}
	if tok, fresh, err := s.Token(ctx, "", never); tok != "t1" || fresh || err != nil {
		t.Fatalf("kept: %q %v %v", tok, fresh, err)
	}
	// Refused: never handed out again.
	if tok, fresh, _ := s.Token(ctx, "t1", sign(time.Time{}, nil)); tok != "t2" || !fresh {
		t.Fatalf("after a refusal: %q %v", tok, fresh)
	}
	// A failed sign-in keeps nothing.
	boom := errors.New("boom")
	if _, _, err := s.Token(ctx, "t2", sign(time.Time{}, boom)); !errors.Is(err, boom) {
		t.Fatalf("failed sign-in: %v", err)
	}
	clock = clock.Add(signInBackoff)
	// After the failure, a sign-in whose credential expires at once: used, not kept.
	if tok, _, _ := s.Token(ctx, "", sign(clock.Add(-time.Second), nil)); tok != "t4" {
		t.Fatalf("after a failure: %q", tok)
	}
	if tok, fresh, _ := s.Token(ctx, "", sign(clock.Add(time.Hour), nil)); tok != "t5" || !fresh {
		t.Fatalf("an expired credential was kept: %q %v", tok, fresh)
	}
	if tok, fresh, _ := s.Token(ctx, "", never); tok != "t5" || fresh {
		t.Fatalf("kept until its time: %q %v", tok, fresh)
	}
	if got := fmt.Sprintf("%v %+v", s, s); strings.Contains(got, "t5") {
		t.Errorf("%%v shows the credential: %s", got)
	}
}

// Probes that arrive during a sign-in wait for it and share its credential; one
// whose deadline passes first gives up with a timeout naming the service.
func TestSignInShared(t *testing.T) {
	s := NewSignIn("Example")
	release := make(chan struct{})
	var calls atomic.Int32
	signIn := func() (string, time.Time, error) {
		calls.Add(1)
		<-release
		return "shared", time.Time{}, nil
	}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() { got[i], _, _ = s.Token(context.Background(), "", signIn) })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	for calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	if _, _, err := s.Token(ctx, "", signIn); !errors.Is(err, wire.ErrTimeout) || !strings.Contains(err.Error(), "Example sign-in") {
		t.Errorf("a probe past its deadline: %v", err)
	}
	close(release)
	wg.Wait()
	for i, tok := range got {
		if tok != "shared" {
			t.Errorf("probe %d: %q", i, tok)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d sign-ins, want 1", n)
	}
}

// TestSignInBackoff (issue 35, L2): a refused sign-in is retried after a wait
// that doubles with each failure in a row, up to signInBackoffMax, not with
// every probe; a success ends it.
func TestSignInBackoff(t *testing.T) {
	ctx := context.Background()
	s := NewSignIn("Example")
	clock := time.Now()
	s.now = func() time.Time { return clock }
	refused := fmt.Errorf("%w: HTTP 401", wire.ErrServer)
	var calls int
	signIn := func() (string, time.Time, error) { calls++; return "", time.Time{}, refused }
	var waits []time.Duration
	for range 10 {
		before := calls
		for step := time.Duration(0); calls == before; step += time.Second {
			if step > time.Hour {
				t.Fatal("no sign-in for an hour")
			}
			if _, _, err := s.Token(ctx, "", signIn); !errors.Is(err, wire.ErrServer) {
				t.Fatalf("err %v", err)
			}
			if calls == before {
				clock = clock.Add(time.Second)
			} else {
				waits = append(waits, step)
			}
		}
	}
	want := []time.Duration{0, 2, 4, 8, 16, 32, 64, 128, 256, 300}
	for i := range want {
		want[i] *= time.Second
	}
	if fmt.Sprint(waits) != fmt.Sprint(want) {
		t.Fatalf("waits %v, want %v", waits, want)
	}
	// 50 probes within a backoff: no sign-in.
	for range 50 {
		s.Token(ctx, "", signIn)
	}
	if calls != 10 {
		t.Fatalf("%d sign-ins", calls)
	}
	clock = clock.Add(signInBackoffMax)
	if tok, fresh, err := s.Token(ctx, "", func() (string, time.Time, error) { return "ok", time.Time{}, nil }); tok != "ok" || !fresh || err != nil {
		t.Fatalf("after the backoff: %q %v %v", tok, fresh, err)
	}
	if s.failures != 0 {
		t.Fatalf("a success left %d failures", s.failures)
	}
}

// TestSharedSignIn (issue 35, L2): the same credentials get the same SignIn
// (a reload keeps a module's sign-in), other credentials another.
func TestSharedSignIn(t *testing.T) {
	a := SharedSignIn("Example", "client", "secret")
	if b := SharedSignIn("Example", "client", "secret"); a != b {
		t.Fatal("the same credentials got another sign-in")
	}
	for _, other := range [][]string{{"client", "other"}, {"clientsecret"}, {"client", "secret", ""}} {
		if SharedSignIn("Example", other...) == a {
			t.Fatalf("%q shares the sign-in of other credentials", other)
		}
	}
	if SharedSignIn("Other", "client", "secret") == a {
		t.Fatal("another service shares the sign-in")
	}
	runtime.KeepAlive(a)
}
