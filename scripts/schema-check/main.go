package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noPackages: the forge schema refers to no other package.
type noPackages struct{}

func (noPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, errors.New("no package " + pkg)
}

func (noPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errors.New("no package " + d.Name)
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		fmt.Println("parse:", err)
		os.Exit(2)
	}
	pkg, diags, err := schema.BindSpec(spec, noPackages{}, schema.ValidationOptions{})
	for _, d := range diags {
		fmt.Println(d.Severity, d.Summary, d.Detail)
	}
	if err != nil || diags.HasErrors() {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("ok", pkg.Name, len(pkg.Resources), len(pkg.Functions))
}
