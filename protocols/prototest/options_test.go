package prototest

import "testing"

func TestOptionsOf(t *testing.T) {
	type opts struct{ Name string }
	var got opts
	if err := OptionsOf(opts{Name: "x"})(&got); err != nil || got.Name != "x" {
		t.Fatalf("%+v, %v", got, err)
	}
}
