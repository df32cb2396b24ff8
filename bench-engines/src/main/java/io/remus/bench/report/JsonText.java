package io.remus.bench.report;

import io.remus.core.fabric.Opcode;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** JSON text by hand (the tool has no JSON library): string literals, numbers, arrays, fields. */
public final class JsonText {
    private JsonText() {
    }

    /**
     * Appends {@code "key":value,} to {@code b}.
     *
     * @param b         the text so far
     * @param key       the field name
     * @param jsonValue the value, already JSON
     */
    public static void field(StringBuilder b, String key, String jsonValue) {
        b.append(str(key)).append(':').append(jsonValue).append(',');
    }

    /** @param v a number @return it with six decimals, locale-independent */
    public static String num(double v) {
        return String.format(Locale.ROOT, "%.6f", v);
    }

    /**
     * The {@code rdma_per_op} object of the bench reports: one field per {@link Opcode}, lower case,
     * then {@code total}.
     *
     * @param perOp posted operations of an opcode per benchmark operation
     * @param total every posted operation per benchmark operation
     * @return the JSON object
     */
    public static String rdmaPerOp(ToDoubleFunction<Opcode> perOp, double total) {
        StringBuilder b = new StringBuilder("{");
        for (Opcode op : Opcode.values()) {
            field(b, op.name().toLowerCase(Locale.ROOT), num(perOp.applyAsDouble(op)));
        }
        return b.append("\"total\":").append(num(total)).append('}').toString();
    }

    /** @param values strings @return them as a JSON array of string literals */
    public static String strings(List<String> values) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            b.append(i == 0 ? "" : ",").append(str(values.get(i)));
        }
        return b.append(']').toString();
    }

    /**
     * @param s any string
     * @return it as a JSON string literal
     */
    public static String str(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
