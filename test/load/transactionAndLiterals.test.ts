import { expect, test } from "vitest";
import { DuckDBInstance } from "../../src/load/duckdb.js";
import { fillSql, type SqlLiteral, sqlListLiteral, sqlLiteral } from "../../src/load/sqlFiles.js";
import { inTransaction } from "../../src/load/transaction.js";

test("inTransaction commits what the work did, and returns its value", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run("CREATE TABLE t (x INTEGER)");
    const value = await inTransaction(connection, async () => {
      await connection.run("INSERT INTO t VALUES (1), (2)");
      return "done";
    });
    expect(value).toBe("done");
    expect((await connection.runAndReadAll("SELECT count(*)::INTEGER FROM t")).getRows()).toEqual([[2]]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});

test("inTransaction rolls back a failed work, and the work's error is the one thrown", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run("CREATE TABLE t (x INTEGER)");
    const failing = inTransaction(connection, async () => {
      await connection.run("INSERT INTO t VALUES (1)");
      throw new Error("the work failed");
    });
    await expect(failing).rejects.toThrow("the work failed");
    expect((await connection.runAndReadAll("SELECT count(*)::INTEGER FROM t")).getRows()).toEqual([[0]]);
    // The work ended the transaction itself, so the rollback fails too: the work's error still wins.
    const ended = inTransaction(connection, async () => {
      await connection.run("ROLLBACK");
      throw new Error("first error");
    });
    await expect(ended).rejects.toThrow("first error");
    // The connection is usable afterwards: no transaction was left open.
    await inTransaction(connection, () => connection.run("INSERT INTO t VALUES (3)"));
    expect((await connection.runAndReadAll("SELECT count(*)::INTEGER FROM t")).getRows()).toEqual([[1]]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});

test("fillSql writes quoted literals, escaping quotes", () => {
  const sql = fillSql("SELECT {{a}} AS a, list_contains({{b}}, 'x')", {
    a: sqlLiteral("it's"),
    b: sqlListLiteral(["x", "y'z"]),
  });
  expect(sql).toBe("SELECT 'it''s' AS a, list_contains(['x', 'y''z'], 'x')");
});

test("fillSql refuses anything but a literal, and a placeholder without a value", () => {
  const clause = "(SELECT * FROM api_calls)" as unknown as SqlLiteral;
  expect(() => fillSql("SELECT * FROM {{rows}}", { rows: clause })).toThrow(/quoted literal/);
  // Not even an object that looks like one.
  const forged = { text: "(SELECT * FROM api_calls)" } as unknown as SqlLiteral;
  expect(() => fillSql("SELECT * FROM {{rows}}", { rows: forged })).toThrow(/quoted literal/);
  expect(() => fillSql("SELECT {{a}}, {{b}}", { a: sqlLiteral("x") })).toThrow(/no value for \{\{b\}\}/);
});
