import { cents } from "./cents.js";
import { card } from "./htmlParts.js";
import type { ForecastFigures } from "./readForecastFigures.js";
import type { Series } from "./svgCharts.js";
import { centsHeadline, chartValue } from "./usd.js";

/** The forecast's colour on the daily chart: apart from the spend's blue. */
export const FORECAST_COLOR = "#d97706";

/** The headline card: the month-end forecast to the cent, its range and the month so far. */
export function forecastCard(forecast: ForecastFigures): string {
  return card(
    `Forecast, ${forecast.month}`,
    centsHeadline(forecast.forecast_usd),
    `month-end, range ${centsHeadline(forecast.forecast_low_usd)} to ${centsHeadline(forecast.forecast_high_usd)} (${forecast.interval})${shiftWords(forecast)}; ${cents(forecast.month_to_date_usd)} USD in its first ${forecast.days_known} days`,
    `${forecast.forecast_usd} USD (${forecast.forecast_low_usd} to ${forecast.forecast_high_usd})`,
  );
}

/** The change in usage the forecast follows, when it saw one. */
function shiftWords(forecast: ForecastFigures): string {
  return forecast.level_shift_day === null ? "" : `, usage changed on ${forecast.level_shift_day}`;
}

/**
 * The chart's columns with the forecast's days after the last one (when the period is open-ended),
 * and the forecast as a line over them (NaN: no point on that column).
 */
export function withForecast(
  days: string[],
  forecast: ForecastFigures | null | undefined,
  openEnded: boolean,
): { columns: string[]; line: Series | undefined } {
  if (forecast === null || forecast === undefined || forecast.days.length === 0) {
    return { columns: days, line: undefined };
  }
  const last = days[days.length - 1] ?? "";
  const ahead = openEnded ? forecast.days.map((d) => d.day).filter((day) => day > last) : [];
  const columns = [...days, ...ahead];
  const byDay = new Map(forecast.days.map((d) => [d.day, d.forecast_usd]));
  return {
    columns,
    line: {
      name: "forecast",
      color: FORECAST_COLOR,
      values: columns.map((day) => {
        const usd = byDay.get(day);
        return usd === undefined ? Number.NaN : chartValue(usd);
      }),
      texts: columns.map((day) => `${byDay.get(day) ?? ""} USD forecast`),
    },
  };
}
