// The jobs dashboard (Hangfire's) writes its times with moment.js in the browser, in moment's English formats: a
// 12-hour US clock. Every other page of BenchWeb writes 24-hour times with the year first; so does this one now.
// Runs before the dashboard's own script reads the formats (that waits for the page to load).
(function () {
  if (typeof moment === 'undefined') {
    return;
  }

  moment.updateLocale('en', {
    longDateFormat: {
      LT: 'HH:mm',
      LTS: 'HH:mm:ss',
      L: 'YYYY-MM-DD',
      l: 'YYYY-MM-DD',
      LL: 'D MMMM YYYY',
      ll: 'D MMM YYYY',
      LLL: 'D MMMM YYYY HH:mm',
      lll: 'D MMM YYYY HH:mm',
      LLLL: 'dddd D MMMM YYYY HH:mm',
      llll: 'YYYY-MM-DD HH:mm:ss',
    },
  });
})();
