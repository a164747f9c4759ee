// pulumi-schema: the forge package schema through Pulumi's own Go packages (pkg/v3, the code the
// engine and `pulumi package` run):
//
//	pulumi-schema check <schema.json>              bind it: "ok <name> <resources> <functions>", or the diagnostics and exit 1
//	pulumi-schema sdk <schema.json> <lang> <dir>   generate the SDK of python or go into <dir>
//
// `pulumi package gen-sdk` asks a language host to generate (GeneratePackage), and the Python and
// Go hosts are not served by the module proxy these machines reach; their generators are pkg/v3's
// own packages, which the hosts call, so this runs them directly.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
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

func (noPackages) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, errors.New("no package " + pkg)
}

func (noPackages) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errors.New("no package " + d.Name)
}

func bind(path string) *schema.Package {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
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
	return pkg
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pulumi-schema:", err)
	os.Exit(1)
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "check" {
		pkg := bind(os.Args[2])
		fmt.Println("ok", pkg.Name, len(pkg.Resources), len(pkg.Functions))
		return
	}
	if len(os.Args) != 5 || os.Args[1] != "sdk" {
		fmt.Fprintln(os.Stderr, "usage: pulumi-schema check <schema.json> | sdk <schema.json> <python|go> <dir>")
		os.Exit(2)
	}
	pkg := bind(os.Args[2])
	var files map[string][]byte
	var err error
	switch os.Args[3] {
	case "python":
		files, err = python.GeneratePackage("pulumi-forge", pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-forge", pkg, nil)
	default:
		err = fmt.Errorf("no generator for %q here (python, go)", os.Args[3])
	}
	if err != nil {
		fail(err)
	}
	for name, content := range files {
		target := filepath.Join(os.Args[4], name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			fail(err)
		}
		if err := os.WriteFile(target, content, 0o644); err != nil {
			fail(err)
		}
	}
	fmt.Println("wrote", len(files), "files to", os.Args[4])
}
