package prototest

import (
	"errors"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

func TestQueryOK(t *testing.T) {
	res, tr := QueryOK(t, echoProtocol, Answering(t, []byte("ping"), []byte("name=srv")), protocols.Settings{}, 2*time.Second)
	if res.Name != "srv" || PhaseReasons(tr) != "info:ok" {
		t.Errorf("%+v, phases %s", res, PhaseReasons(tr))
	}
	// A failed probe fails the test: once here, where nothing answers.
	f := &fatalCounter{TB: t}
	if res, _ := WithinOK(f, MustNew(t, echoProtocol, protocols.Settings{}), Silent(t), 100*time.Millisecond); res != nil || f.n != 1 {
		t.Errorf("silence: %+v, %d failures", res, f.n)
	}
}

func TestNoError(t *testing.T) {
	f := &fatalCounter{TB: t}
	NoError(f, nil)
	NoError(f, errors.New("broken"))
	if f.n != 1 {
		t.Errorf("%d failures, want 1", f.n)
	}
}
