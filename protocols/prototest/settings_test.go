package prototest

import "testing"

func TestSettings(t *testing.T) {
	if s := Settings(true, ""); !s.Players || s.Options != nil {
		t.Errorf("no block: %+v", s)
	}
	var o struct {
		Port int `yaml:"port"`
	}
	s := Settings(false, "port: 7\n")
	if err := s.Options(&o); s.Players || err != nil || o.Port != 7 {
		t.Errorf("%+v, %v, port %d", s, err, o.Port)
	}
	if err := Settings(false, "nope: 1").Options(&o); err == nil {
		t.Error("an unknown key decoded")
	}
}
