package protocols

import (
	"context"
	"errors"
	"fmt"
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
	// After the failure, a sign-in whose credential expires at once: used, not kept.
	if tok, _, _ := s.Token(ctx, "", sign(time.Now().Add(-time.Second), nil)); tok != "t4" {
		t.Fatalf("after a failure: %q", tok)
	}
	if tok, fresh, _ := s.Token(ctx, "", sign(time.Now().Add(time.Hour), nil)); tok != "t5" || !fresh {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _, _ = s.Token(context.Background(), "", signIn)
		}()
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
