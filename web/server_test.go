package web

import (
	"net/http"
	"testing"
	"time"
)

func TestServerLimits(t *testing.T) {
	s := NewServer(http.NotFoundHandler())
	if s.ReadTimeout <= 0 || s.ReadTimeout > 40*time.Second || s.IdleTimeout <= 60*time.Second || s.IdleTimeout > 5*time.Minute ||
		s.ReadHeaderTimeout <= 0 || s.MaxHeaderBytes <= 0 || s.MaxHeaderBytes > 1<<20 {
		t.Errorf("limits: read %s, idle %s, header %s, %d header bytes", s.ReadTimeout, s.IdleTimeout, s.ReadHeaderTimeout, s.MaxHeaderBytes)
	}
}
