/*
 * Copyright 2026 The convoy-sharding authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.kumodo.convoy.sharding;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The public API of compiled classes as sorted lines, one per public or protected type,
 * constructor, method and field, each prefixed with its type's name and marked when
 * deprecated. A type of a package named {@code internal} is marked {@value #INTERNAL} on its
 * declaration line: public only for the project's own modules, with no compatibility promise.
 * Public methods a public
 * class inherits from a package-private superclass (javac makes them visible on the subclass)
 * are listed as the subclass's own. A copy of this class is in each module's tests.
 */
public final class PublicApiListing {
  private static final String UPDATE = "convoy.api.update";
  private static final int VISIBLE = Modifier.PUBLIC | Modifier.PROTECTED;
  /** The mark of a type in a package named {@code internal}. */
  public static final String INTERNAL = "[internal: no compatibility promise] ";

  private PublicApiListing() {}

  /** The listing of the classes in the directory or jar that {@code anchor} was loaded from. */
  public static List<String> of(Class<?> anchor, String basePackage, List<String> excludedPackages) throws IOException {
    Path root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().getPath());
    Path base = root.resolve(basePackage.replace('.', '/'));
    List<String> names;
    try (Stream<Path> files = Files.walk(base)) {
      names = files.map(root::relativize).map(Path::toString)
          .filter(f -> f.endsWith(".class") && !f.endsWith("package-info.class") && !f.endsWith("module-info.class"))
          .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
          .toList();
    }
    Map<String, List<String>> byType = new TreeMap<>();
    for (String name : names) {
      Class<?> type;
      try {
        type = Class.forName(name, false, anchor.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
      String pkg = type.getPackageName();
      if (excludedPackages.stream().anyMatch(p -> pkg.equals(p) || pkg.startsWith(p + "."))) {
        continue;
      }
      if (visible(type)) {
        byType.put(type.getName(), lines(type));
      }
    }
    return byType.values().stream().flatMap(List::stream).toList();
  }

  /**
   * Compares {@code compiled} with the listing in {@code file}; with {@code -Dconvoy.api.update=true}
   * rewrites the file instead. Fails with the lines added and removed.
   */
  public static void compare(List<String> compiled, Path file, String module) throws IOException {
    if (Boolean.getBoolean(UPDATE)) {
      Files.write(file, compiled);
    } else {
      check(compiled, file, module);
    }
  }

  /** Fails with the lines added and removed when {@code compiled} differs from the listing in {@code file}. */
  public static void check(List<String> compiled, Path file, String module) throws IOException {
    List<String> checkedIn = Files.exists(file) ? Files.readAllLines(file) : List.of();
    String difference = difference(checkedIn, compiled);
    if (!difference.isEmpty()) {
      throw new AssertionError("The public API of " + module + " differs from " + file + ":\n" + difference);
    }
  }

  /** The lines only in {@code compiled} (+) and only in {@code checkedIn} (-), with how to regenerate; or "". */
  public static String difference(List<String> checkedIn, List<String> compiled) {
    Set<String> added = new LinkedHashSet<>(compiled);
    added.removeAll(Set.copyOf(checkedIn));
    Set<String> removed = new LinkedHashSet<>(checkedIn);
    removed.removeAll(Set.copyOf(compiled));
    if (added.isEmpty() && removed.isEmpty() && checkedIn.equals(compiled)) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    added.forEach(l -> out.append("+ ").append(l).append('\n'));
    removed.forEach(l -> out.append("- ").append(l).append('\n'));
    if (added.isEmpty() && removed.isEmpty()) {
      out.append("(same lines, other order)\n");
    }
    out.append("If the change is intended, rewrite the listing with -D").append(UPDATE)
        .append("=true (run this test in the module) and commit the file.");
    return out.toString();
  }

  private static boolean visible(Class<?> type) {
    if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
      return false;
    }
    for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
      if ((t.getModifiers() & VISIBLE) == 0) {
        return false;
      }
    }
    return true;
  }

  private static List<String> lines(Class<?> type) {
    String prefix = type.getName() + ": ";
    List<String> members = new ArrayList<>();
    for (Field f : type.getDeclaredFields()) {
      if (shown(f)) {
        members.add(deprecated(f) + modifiers(f) + name(f.getGenericType()) + " " + f.getName());
      }
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (shown(c)) {
        members.add(deprecated(c) + modifiers(c) + type.getSimpleName() + parameters(c));
      }
    }
    Set<String> signatures = new LinkedHashSet<>();
    for (Class<?> t = type; t != null && (t == type || (t.getModifiers() & VISIBLE) == 0); t = t.getSuperclass()) {
      for (Method m : t.getDeclaredMethods()) {
        if (shown(m) && !m.isBridge() && signatures.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
          members.add(deprecated(m) + modifiers(m) + (m.isDefault() ? "default " : "") + typeParameters(m)
              + name(m.getGenericReturnType()) + " " + m.getName() + parameters(m));
        }
      }
    }
    List<String> out = new ArrayList<>();
    String internal = type.getPackageName().endsWith(".internal") ? INTERNAL : "";
    out.add(prefix + internal + deprecated(type) + declaration(type));
    members.stream().sorted().forEach(m -> out.add(prefix + m));
    return out;
  }

  private static String declaration(Class<?> type) {
    int mods = type.getModifiers() & (VISIBLE | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT);
    if (type.isInterface()) {
      mods &= ~(Modifier.ABSTRACT | Modifier.STATIC);
    }
    if (type.isEnum() || type.isRecord()) {
      mods &= ~(Modifier.FINAL | Modifier.STATIC);
    }
    String kind = type.isAnnotation() ? "@interface" : type.isInterface() ? "interface"
        : type.isEnum() ? "enum" : type.isRecord() ? "record" : "class";
    StringBuilder out = new StringBuilder(Modifier.toString(mods)).append(' ').append(kind);
    if (type.getTypeParameters().length > 0) {
      out.append(Arrays.stream(type.getTypeParameters()).map(PublicApiListing::bounded)
          .collect(Collectors.joining(", ", "<", ">")));
    }
    Type superclass = type.getGenericSuperclass();
    if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
      out.append(" extends ").append(name(superclass));
    }
    Type[] interfaces = type.getGenericInterfaces();
    if (interfaces.length > 0) {
      out.append(type.isInterface() ? " extends " : " implements ")
          .append(Arrays.stream(interfaces).map(PublicApiListing::name).collect(Collectors.joining(", ")));
    }
    return out.toString();
  }

  private static String deprecated(java.lang.reflect.AnnotatedElement element) {
    return element.isAnnotationPresent(Deprecated.class) ? "@Deprecated " : "";
  }

  private static boolean shown(Member member) {
    return (member.getModifiers() & VISIBLE) != 0 && !member.isSynthetic();
  }

  private static String modifiers(Member member) {
    int mods = member.getModifiers()
        & (VISIBLE | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT | Modifier.SYNCHRONIZED);
    if (member.getDeclaringClass().isInterface()) {
      mods &= ~Modifier.ABSTRACT;
    }
    String text = Modifier.toString(mods & ~Modifier.SYNCHRONIZED);
    return text.isEmpty() ? "" : text + " ";
  }

  private static String typeParameters(Method m) {
    if (m.getTypeParameters().length == 0) {
      return "";
    }
    return Arrays.stream(m.getTypeParameters()).map(PublicApiListing::bounded).collect(Collectors.joining(", ", "<", "> "));
  }

  private static String bounded(java.lang.reflect.TypeVariable<?> variable) {
    List<String> bounds = Arrays.stream(variable.getBounds()).filter(b -> b != Object.class).map(PublicApiListing::name).toList();
    return bounds.isEmpty() ? variable.getName() : variable.getName() + " extends " + String.join(" & ", bounds);
  }

  private static String parameters(Executable e) {
    String params = Arrays.stream(e.getGenericParameterTypes()).map(PublicApiListing::name).collect(Collectors.joining(", ", "(", ")"));
    if (e.isVarArgs()) {
      params = params.substring(0, params.lastIndexOf("[]")) + "...)";
    }
    Type[] thrown = e.getGenericExceptionTypes();
    return thrown.length == 0 ? params
        : params + " throws " + Arrays.stream(thrown).map(PublicApiListing::name).collect(Collectors.joining(", "));
  }

  private static String name(Type type) {
    return type.getTypeName().replace('$', '.');
  }
}
