// pulumi-schema: the forge package schema through Pulumi's own Go packages (pkg/v3, the code the
// engine and `pulumi package` run):
//
//	pulumi-schema check <schema.json>              bind it: "ok <name> <resources> <functions>", or the diagnostics and exit 1
//	pulumi-schema sdk <schema.json> <lang> <dir>   generate the SDK of python or go into <dir>
//
// `pulumi package gen-sdk` asks a language host to generate (GeneratePackage), and the Python and
// Go hosts are not served by the module proxy these machines reach; their generators are pkg/v3's
// own packages, which the hosts call, so this runs them directly. Two things it adds to what the
// generators write: the descriptions name fields, functions and resource options as the SDK's
// language writes them (the schema's are Pulumi YAML's and TypeScript's camelCase), and what a
// release build would stamp (Go's SDK version, the pulumi SDK it was tested with, the Python
// package's README where setup.py reads it).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

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
	language := os.Args[3]
	if language != "python" && language != "go" {
		fail(fmt.Errorf("no generator for %q here (python, go)", language))
	}
	renameInDocs(pkg, language)
	var files map[string][]byte
	var err error
	switch language {
	case "python":
		files, err = python.GeneratePackage("pulumi-forge", pkg, nil, noPackages{})
	case "go":
		files, err = gogen.GeneratePackage("pulumi-forge", pkg, nil)
	}
	if err != nil {
		fail(err)
	}
	finish(pkg, language, files)
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

// resourceOptions: the resource options descriptions name, as each language writes them.
var resourceOptions = map[string]map[string]string{
	"deleteBeforeReplace": {"python": "delete_before_replace", "go": "pulumi.DeleteBeforeReplace"},
	"ignoreChanges":       {"python": "ignore_changes", "go": "pulumi.IgnoreChanges"},
	"replaceOnChanges":    {"python": "replace_on_changes", "go": "pulumi.ReplaceOnChanges"},
	"retainOnDelete":      {"python": "retain_on_delete", "go": "pulumi.RetainOnDelete"},
	"protect":             {"python": "protect", "go": "pulumi.Protect"},
	"import":              {"python": "import_", "go": "pulumi.Import"},
}

// namer: the names of the package (properties, functions) as one language's generator writes them.
type namer struct {
	language   string
	properties map[string]bool
	functions  map[string]string
	types      map[string]bool
	// onlyOwn: a function's description names its records' keys, which stay camelCase (they are the
	// keys of the map it answers): only its own arguments are renamed there.
	onlyOwn bool
}

func newNamer(pkg *schema.Package, language string) *namer {
	n := &namer{language: language, properties: map[string]bool{}, functions: map[string]string{}, types: map[string]bool{}}
	addAll := func(props []*schema.Property) {
		for _, p := range props {
			n.properties[p.Name] = true
		}
	}
	resources := map[string]bool{}
	for _, r := range pkg.Resources {
		name := member(r.Token)
		resources[name] = true
		n.types[name] = true
		addAll(r.Properties)
		addAll(r.InputProperties)
	}
	for _, t := range pkg.Types {
		if o, ok := t.(*schema.ObjectType); ok {
			addAll(o.Properties)
			n.types[member(o.Token)] = true
		}
	}
	for _, f := range pkg.Functions {
		name := member(f.Token)
		if f.Inputs != nil {
			addAll(f.Inputs.Properties)
		}
		switch language {
		case "python":
			n.functions[name] = python.PyName(name)
		case "go":
			// The Go generator renames a function whose name a resource's static getter takes.
			goName := gogen.Title(name)
			if strings.HasPrefix(goName, "Get") && resources[goName[3:]] {
				goName = "Lookup" + goName[3:]
			}
			n.functions[name] = goName
		}
	}
	return n
}

func member(token string) string {
	return token[strings.LastIndex(token, ":")+1:]
}

func (n *namer) property(name string) string {
	if n.language == "python" {
		return python.PyName(name)
	}
	return gogen.Title(name)
}

// renames: whether a lone word is a property's name: one of the description's own properties, or
// any property's when it cannot be a plain word (camelCase).
func (n *namer) renames(word string, own map[string]bool) bool {
	return n.properties[word] && (own[word] || !n.onlyOwn && strings.ToLower(word) != word)
}

// A name in inline code: one identifier, or a path from a resource or function (`ClusterAgent.agentId`,
// `GroupSettings.defaultBranchProtectionDefaults.allowedToPush[].accessLevel`), maybe a prefix
// (`lastRun*`), then nothing, or a value after ": ".
var codeName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*(?:\[\])?(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\])?)*)(\*?)((?:: .*)?)$`)
var inlineCode = regexp.MustCompile("`[^`\n]+`")
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// span rewrites the names of one inline code span; own holds the properties of the resource,
// type or function the description belongs to (single words are renamed only there: `name`, `all`).
func (n *namer) span(code string, own map[string]bool) string {
	m := codeName.FindStringSubmatch(code)
	if m == nil {
		return code
	}
	path, star, rest := m[1], m[2], m[3]
	parts := strings.Split(path, ".")
	head := strings.TrimSuffix(parts[0], "[]")
	switch {
	case len(parts) > 1 && (n.types[head] || n.functions[head] != "" || n.renames(head, own)):
		start := 1
		if fn := n.functions[head]; fn != "" {
			parts[0] = fn
		} else if !n.types[head] {
			start = 0 // a path from a property: `platformVendorAttributes.authorizationType`
		}
		for i := start; i < len(parts); i++ {
			parts[i] = identifier.ReplaceAllStringFunc(parts[i], func(word string) string {
				if n.properties[word] {
					return n.property(word)
				}
				return word
			})
		}
	case len(parts) > 1:
		return code
	case n.functions[head] != "":
		parts[0] = n.functions[head]
	case resourceOptions[head] != nil && rest == "" && star == "":
		parts[0] = resourceOptions[head][n.language]
	case star != "":
		parts[0] = n.property(head)
	case n.renames(head, own):
		parts[0] = strings.Replace(parts[0], head, n.property(head), 1)
	default:
		return code
	}
	return strings.Join(parts, ".") + star + rest
}

// text rewrites every inline code span outside fenced blocks (the import commands keep the schema's words).
func (n *namer) text(description string, own map[string]bool) string {
	chunks := strings.Split(description, "```")
	for i := 0; i < len(chunks); i += 2 {
		chunks[i] = inlineCode.ReplaceAllStringFunc(chunks[i], func(code string) string {
			return "`" + n.span(code[1:len(code)-1], own) + "`"
		})
	}
	return strings.Join(chunks, "```")
}

func propertySet(lists ...[]*schema.Property) map[string]bool {
	set := map[string]bool{}
	for _, props := range lists {
		for _, p := range props {
			set[p.Name] = true
		}
	}
	return set
}

// renameInDocs rewrites the descriptions of the whole package for one language.
func renameInDocs(pkg *schema.Package, language string) {
	n := newNamer(pkg, language)
	done := map[*string]bool{}
	rewrite := func(comment *string, own map[string]bool) {
		if !done[comment] {
			*comment = n.text(*comment, own)
			done[comment] = true
		}
	}
	properties := func(props []*schema.Property, own map[string]bool) {
		for _, p := range props {
			rewrite(&p.Comment, own)
		}
	}
	var object func(o *schema.ObjectType)
	object = func(o *schema.ObjectType) {
		if o == nil {
			return
		}
		own := propertySet(o.Properties)
		rewrite(&o.Comment, own)
		properties(o.Properties, own)
		if o.InputShape != nil && o.InputShape != o {
			object(o.InputShape)
		}
	}
	resources := append([]*schema.Resource{pkg.Provider}, pkg.Resources...)
	for _, r := range resources {
		if r == nil {
			continue
		}
		own := propertySet(r.Properties, r.InputProperties)
		rewrite(&r.Comment, own)
		properties(r.Properties, own)
		properties(r.InputProperties, own)
		if r.StateInputs != nil {
			properties(r.StateInputs.Properties, own)
		}
	}
	properties(pkg.Config, propertySet(pkg.Config))
	for _, t := range pkg.Types {
		switch t := t.(type) {
		case *schema.ObjectType:
			object(t)
		case *schema.EnumType:
			rewrite(&t.Comment, nil)
			for _, e := range t.Elements {
				rewrite(&e.Comment, nil)
			}
		}
	}
	n.onlyOwn = true
	for _, f := range pkg.Functions {
		var own map[string]bool
		if f.Inputs != nil {
			own = propertySet(f.Inputs.Properties)
		}
		rewrite(&f.Comment, own)
		object(f.Inputs)
		object(f.Outputs)
	}
}

// pulumiSDK: the version of github.com/pulumi/pulumi/sdk/v3 this tool was built with, the one the
// SDKs are tested with.
func pulumiSDK() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/pulumi/pulumi/sdk/v3" {
				return dep.Version
			}
		}
	}
	return ""
}

var goRequire = regexp.MustCompile(`(?m)^(require github\.com/pulumi/pulumi/sdk/v3) v\S+$`)

// finish: what a release build would stamp into the generated files.
func finish(pkg *schema.Package, language string, files map[string][]byte) {
	switch language {
	case "python":
		// setup.py reads README.md beside it; the generator writes it inside the package only.
		for name, content := range files {
			if filepath.Base(name) == "README.md" && filepath.Dir(name) != "." {
				files["README.md"] = content
				break
			}
		}
	case "go":
		// The generator leaves SdkVersion empty for a release to set with -ldflags; without it the
		// module registers itself as 1.0.0 (a resource read back by `pulumi import` asks for that).
		for name, content := range files {
			if filepath.Base(name) == "pulumiVersion.go" && pkg.Version != nil {
				files[name] = []byte(strings.Replace(string(content), "var SdkVersion semver.Version = semver.Version{}",
					fmt.Sprintf("var SdkVersion semver.Version = semver.MustParse(%q)", pkg.Version.String()), 1))
			}
		}
		if mod, ok := files["go.mod"]; ok && pulumiSDK() != "" {
			files["go.mod"] = goRequire.ReplaceAll(mod, []byte("${1} "+pulumiSDK()))
		}
	}
}
